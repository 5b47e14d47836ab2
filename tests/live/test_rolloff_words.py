"""A tied initiative roll-off typed at the table (issue 35): the count it asks is each tied
combatant's die (Tri-Stat: 2d6 each, 4 values for two), and values that tie again are told
as a tie, never as a wrong count ("type 2 values, not 2")."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from fracas.encounter.session import Session
from fracas.errors import InputError
from fracas.registry.scenarios import scenario_from_mapping


def _tied(path: str, first: list[list[int]]) -> Session:
    """The example duel with its second combatant a copy of the first (same initiative
    skill or Combat Value), both typing the same initiative dice: a roll-off."""
    with open(path, encoding="utf-8") as f:
        data: dict[str, Any] = yaml.safe_load(f)
    a, b = data["combatants"][:2]
    b.update({k: v for k, v in a.items() if k not in ("id", "name", "side", "player")})
    sc = scenario_from_mapping(data)
    s = Session.start(sc, seed=7, controllers=dict.fromkeys(sc.roster, "person"))
    for dice in first:
        s.decide({"dice": dice})
    return s


@pytest.mark.parametrize(("path", "first", "count", "tie", "untied"), [
    ("examples/contest/duel-fight.yaml", [[1], [1]], 2, [5, 5], [5, 2]),
    ("examples/tristat/duel-fight.yaml", [[3, 4], [3, 4]], 4, [5, 5, 4, 6], [5, 6, 2, 3]),
])
def test_a_tied_roll_off_is_told_as_a_tie(path: str, first: list[list[int]], count: int,
                                          tie: list[int], untied: list[int]) -> None:
    s = _tied(path, first)
    assert s.pending is not None and s.pending.dice is not None
    assert "roll-off" in s.pending.prompt and s.pending.dice.count == count
    with pytest.raises(InputError) as err:
        s.decide({"dice": tie})
    said = str(err.value)
    assert "leave a tie" in said and f"type {count} values that break it" in said
    assert "not " not in said.split(": ", 2)[-1]  # no "type N values, not N"
    s.decide({"dice": untied})
    assert s.pending is not None and s.pending.kind == "action"
