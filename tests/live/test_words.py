"""Each system's words (``data/words.yaml``): validated as the system loads, with a clear
error naming the file and the entry, and covering every action and option its example
fights offer."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.words import load_words
from fracas.encounter.decisions import option_keys
from fracas.errors import InputError
from fracas.registry import systems
from fracas.registry.scenarios import load_scenario

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
    words = systems()[system_id]().words
    seen = 0
    for path in sorted(Path("examples").glob(f"{system_id}/*.yaml")):
        scenario = load_scenario(path)
        system = scenario.system
        for cid in scenario.roster:
            actions = [*system.actions(cid, scenario.roster),
                       *system.round_choices(cid, scenario.roster, 1)]
            for action in actions:
                reactions = system.reactions(action, scenario.roster) if (
                    action.target is not None and action.offensive) else [action]
                for variant in [action, *reactions]:
                    seen += 1
                    assert variant.kind in words.actions, (path, variant.kind)
                    for key in option_keys(variant):
                        field, _, _ = key.partition("=")
                        nested = key.split("=", 1)[1].startswith("{")
                        assert nested or key in words.options or field in words.options, (
                            path, key)
    assert seen > 0
