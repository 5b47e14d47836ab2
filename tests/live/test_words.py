"""Each system's words (``data/words.yaml``): validated as the system loads, with a clear
error naming the file and the entry, and covering every action and option its example
fights offer."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.words import load_words
from fracas.errors import InputError
from fracas.registry import systems
from fracas.registry.scenarios import load_scenario
from fracas.testing import check_words

SYSTEMS = sorted(systems())


def test_a_bad_words_file_names_the_file_the_entry_and_the_field() -> None:
    path = Path("systems/tristat/data/words.yaml")
    with pytest.raises(InputError) as err:
        load_words(path, {"options": {"vital_target": {"label": "Called shot",
                                                       "descriptoin": "x"}}})
    text = str(err.value)
    assert str(path) in text and "options.vital_target" in text and "descriptoin" in text
    with pytest.raises(InputError, match=r"actions\.attack\.group"):
        load_words(path, {"actions": {"attack": {"label": "Attack", "group": "bash"}}})


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_action_and_option_of_the_examples_has_words(system_id: str) -> None:
    """The conformance kit's words check (check 10) on every example of the system."""
    seen = sum(check_words(load_scenario(path))
               for path in sorted(Path("examples").glob(f"{system_id}/*.yaml")))
    assert seen > 0


def test_the_words_check_names_what_has_no_words_and_where_to_give_them(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A system whose data pack lacks a word fails conformance, naming the action or
    option and the words file: the test duel, its data pack taken away, then with its
    action's words only."""
    from tests.toy import Duel

    monkeypatch.setattr(Duel, "data_dir", classmethod(lambda cls: tmp_path))
    with pytest.raises(AssertionError, match=r"ann's action 'attack' has no words: give "
                                             r"it a label under actions: in .*words\.yaml"):
        check_words(load_scenario("tests/toy/examples/duel-fight.yaml"))
    (tmp_path / "words.yaml").write_text(
        "actions:\n  attack: {label: Attack, group: attack}\n", encoding="utf-8")
    with pytest.raises(AssertionError, match=r"ann's attack option 'stance=reckless' has no "
                                             r"words: give 'stance' \(or 'stance=reckless'\)"):
        check_words(load_scenario("tests/toy/examples/duel-fight.yaml"))


def test_a_glance_at_a_field_the_state_does_not_have_is_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The status's glance: list of a data pack reads state fields: a misspelt one fails
    the words check, naming the file, the field and the fields there are."""
    from fracas.core.words import Glance

    scenario = load_scenario("examples/contest/gate-fight.yaml")
    words = scenario.system.words
    wrong = words.model_copy(update={"glance": [Glance(field="armor_hp", label="x")]})
    monkeypatch.setattr(type(scenario.system), "words", property(lambda self: wrong))
    with pytest.raises(AssertionError, match=r"words\.yaml: glance: 'armor_hp' is no field "
                                             r"of .*'s state \(allowed: hp, max_hp, armour_hp"):
        check_words(scenario)
