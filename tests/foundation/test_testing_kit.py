"""The conformance kit's identifier check (``fracas.testing.check_identifiers``), shipped
for any system: every example fight of every built-in system passes it, and it names
what a table would read as code."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.registry import systems
from fracas.registry.examples import all_examples
from fracas.registry.scenarios import load_scenario
from fracas.testing import check_identifiers, identifiers, table_text

FIGHTS = [e.name for e in all_examples() if e.fight and e.system in systems()]


@pytest.mark.parametrize("name", FIGHTS)
def test_every_example_fight_reads_in_plain_words(name: str) -> None:
    path = next(e.path for e in all_examples() if e.name == name)
    assert check_identifiers(load_scenario(path)) > 100


def test_the_check_names_an_identifier_a_table_would_read(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tests.toy import Duel

    (tmp_path / "words.yaml").write_text(
        "actions:\n  attack: {label: power_attack, group: attack}\n"
        "options:\n  stance=reckless: {label: Reckless}\n", encoding="utf-8")
    monkeypatch.setattr(Duel, "data_dir", classmethod(lambda cls: tmp_path))
    scenario = load_scenario("tests/toy/examples/duel-fight.yaml")
    assert "power_attack" in identifiers(scenario, table_text(scenario))
    with pytest.raises(AssertionError, match=r"duel-fight\.yaml: a table reads code "
                                             r"identifiers .*'power_attack'"):
        check_identifiers(scenario)
