"""Issue 35: c22's exact fight odds and fast path keep apart the cards a later draw can
read (here: initiative ties broken by suit, public rule), checked where users meet them,
`fracas odds --fight` and `fracas simulate` in fresh processes."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

SUITS = Path(__file__).parent / "data" / "suits-decide-initiative.yaml"


def fracas(*args: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-m", "fracas", *args, "--json"],
                         capture_output=True, text=True, check=False, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_fight_odds_where_suits_decide_who_acts_first_are_one_half() -> None:
    odds = fracas("odds", str(SUITS), "--fight")
    assert odds["exact"] is True
    assert odds["outcomes"] == {"red": {"p": 0.5, "exact": "1/2"},  # was 5/6
                                "blue": {"p": 0.5, "exact": "1/2"}}


@pytest.mark.parametrize("method", ["auto", "fast", "steps"])
def test_simulate_where_suits_decide_who_acts_first_agrees_with_the_truth(method: str
                                                                         ) -> None:
    """4000 fights on each path: red's share within 4 standard errors of 1/2 (auto takes
    the fast path here: it once reported 84 %)."""
    n = 4000
    out = fracas("simulate", str(SUITS), "-n", str(n), "--method", method, "--seed", "35")
    if method != "steps":
        assert out["method"] == "fast"
    p = out["sides"]["red"]["p_win"]  # type: ignore[index]
    assert abs(p - 0.5) <= 4 * math.sqrt(0.25 / n), p


TWO_FOURS = Path(__file__).parent / "data" / "duel-fight-two-fours.yaml"


def test_fight_odds_of_the_example_duel_with_a_second_four_are_exact() -> None:
    """The example duel with one more 4 of another suit in each deck: 18187/32400, the
    figure of an independent enumeration over every card (merged hands gave 185/324)."""
    odds = fracas("odds", str(TWO_FOURS), "--fight")
    assert odds["exact"] is True
    assert odds["outcomes"]["crew"]["exact"] == "18187/32400"  # type: ignore[index]
    assert odds["outcomes"]["pirates"]["exact"] == "14213/32400"  # type: ignore[index]
