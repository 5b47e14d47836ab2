"""Strict input: counts are whole numbers (not ``true``, ``"2"`` or ``2.0``), a key given
twice is an error naming it and its line, a misspelt key is named with the nearest
allowed one. Each through ``fracas attack FILE`` as a user meets it: exit 2, one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.formats.conftest import Run, example, write

Edit = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Edit:
    """An edit setting a dotted path (``combatants.0.hp``) of a scenario."""

    def edit(data: dict[str, Any]) -> None:
        keys = [int(k) if k.isdigit() else k for k in path.split(".")]
        target: Any = data
        for key in keys[:-1]:
            target = target.setdefault(key, {}) if isinstance(target, dict) else target[key]
        target[keys[-1]] = value

    return edit


NOT_COUNTS = [True, "2", 2.0]

STRICT_FIELDS = [
    ("tristat/vampire", "combatants.0.body", "combatants[0].body"),
    ("tristat/vampire", "attack.options.trick_shot", "attack.options.trick_shot"),
    ("contest/dodge", "attack.options.boons", "attack.options.boons"),
    ("contest/dodge", "combatants.0.armour.dr", "combatants[0].armour.dr"),
    ("contest/dodge", "combatants.0.skills.dodge", "combatants[0].skills"),
    ("genesys/brawl", "combatants.0.soak", "combatants[0].soak"),
    ("genesys/brawl", "combatants.0.characteristics.brawn",
     "combatants[0].characteristics.brawn"),
    ("c22/one-tough-lizard", "combatants.0.avoidance", "combatants[0].avoidance"),
    ("zamani/regular_melee", "combatants.0.wounds.max", "combatants[0].wounds.max"),
    ("zamani/regular_melee", "combatants.0.attributes.dexterity",
     "combatants[0].attributes.dexterity"),
    ("tristat/vampire", "max_rounds", "max_rounds"),
    ("tristat/vampire", "combatants.0.weapons.0.hands", "combatants[0].weapons[0].hands"),
]


@pytest.mark.parametrize("value", NOT_COUNTS, ids=repr)
@pytest.mark.parametrize(("name", "field", "path"), STRICT_FIELDS)
def test_a_count_is_a_whole_number_not_true_text_or_a_float(
        run: Run, tmp_path: Path, name: str, field: str, path: str, value: Any) -> None:
    data = example(name)
    _set(field, value)(data)
    code, out, err = run("attack", str(write(tmp_path, data)))
    assert code == 2, (out, err)
    assert out == ""
    line = err.strip()
    assert "\n" not in line and "Traceback" not in line
    assert f": {path}" in line
    assert "whole number" in line or "valid integer" in line


@pytest.mark.parametrize(("name", "field", "path"), [
    ("tristat/vampire", "attack.options.vital_target", "attack.options.vital_target"),
    ("zamani/regular_melee", "attack.options.cover", "attack.options.cover"),
    ("c22/one-tough-lizard", "attack.options.raised", "attack.options.raised"),
])
@pytest.mark.parametrize("value", [1, "yes", "true"], ids=repr)
def test_a_flag_is_true_or_false_only(run: Run, tmp_path: Path, name: str, field: str,
                                      path: str, value: Any) -> None:
    data = example(name)
    _set(field, value)(data)
    code, _, err = run("attack", str(write(tmp_path, data)))
    assert code == 2
    assert f": {path}: " in err and "true or false" in err


def test_the_unedited_examples_still_load(run: Run, tmp_path: Path) -> None:
    for name, field, _ in STRICT_FIELDS:
        data = example(name)
        code, _, err = run("attack", str(write(tmp_path, data)))
        assert code == 0, (name, field, err)


def test_a_key_given_twice_names_the_key_and_both_lines(run: Run, tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "examples/tristat/vampire.yaml").read_text()
    lines = text.splitlines()
    body = next(i for i, line in enumerate(lines) if line.strip().startswith("body:"))
    indent = lines[body][: len(lines[body]) - len(lines[body].lstrip())]
    lines.insert(body + 1, f"{indent}body: 9")
    code, out, err = run("attack", str(write(tmp_path, "\n".join(lines) + "\n")))
    assert code == 2 and out == ""
    assert f"duplicate key 'body' on line {body + 2} (first given on line {body + 1})" in err


def test_the_c_parser_reads_every_shipped_file_as_the_python_one_and_keeps_its_messages(
        run: Run, tmp_path: Path) -> None:
    """parse_yaml takes libyaml's parser when there is one: same data from every example and
    data pack, the same duplicate-key error, and the Python parser's message on bad YAML."""
    import yaml

    from fracas.core import strictyaml

    assert strictyaml._FastLoader is not None  # the fast path is the one under test
    root = Path(__file__).resolve().parents[2]
    files = [*root.glob("examples/**/*.yaml"), *root.glob("src/fracas/systems/*/data/*.yaml")]
    assert len(files) > 40
    for path in files:
        text = path.read_text(encoding="utf-8")
        slow = yaml.load(text, Loader=strictyaml.UniqueKeyLoader)
        assert strictyaml.parse_yaml(text) == slow, path
    with pytest.raises(strictyaml.DuplicateKeyError, match=r"on line 2 \(first given on line 1\)"):
        strictyaml.parse_yaml("a: 1\na: 2\n")
    code, _, err = run("attack", str(write(tmp_path, "system: tristat\ncombatants:\n\t- a\n")))
    assert code == 2
    assert "line 3, column 1: not valid YAML: found character '\\t' that cannot start" in err


@pytest.mark.parametrize(("name", "edit", "path", "hint"), [
    ("genesys/brawl", "wound_threshold", "combatants[0].wound_treshold",
     "unknown key 'wound_treshold'; did you mean 'wound_threshold'?"),
    ("tristat/vampire", "body", "combatants[0].bdy", "unknown key 'bdy'; did you mean 'body'?"),
    ("contest/dodge", "hp", "combatants[0].hq", "unknown key 'hq'; did you mean 'hp'?"),
    ("zamani/regular_melee", "wounds", "combatants[0].wound",
     "unknown key 'wound'; did you mean 'wounds'?"),
    ("c22/one-tough-lizard", "avoidance", "combatants[0].avoidence",
     "unknown key 'avoidence'; did you mean 'avoidance'?"),
    ("tristat/vampire", "side", "combatants[0].sid", "unknown key 'sid'; did you mean 'side'?"),
])
def test_a_misspelt_required_key_is_unknown_with_the_nearest_name(
        run: Run, tmp_path: Path, name: str, edit: str, path: str, hint: str) -> None:
    data = example(name)
    entry = data["combatants"][0]
    wrong = path.rsplit(".", 1)[1]
    entry[wrong] = entry.pop(edit)
    code, _, err = run("attack", str(write(tmp_path, data)))
    assert code == 2
    assert f": {path}: {hint}" in err
    assert "required" not in err.split("s.yaml: ")[1] and "more problem" not in err


@pytest.mark.parametrize(("name", "place", "wrong", "hint"), [
    ("contest/dodge", "attack.options", "boon", "boons"),
    ("contest/dodge", "rules.check", "critical_treat", "critical_threat"),
    ("genesys/brawl", "rules", "max_defence", "max_defense"),
    ("tristat/vampire", "combatants.0.armor", "ratin", "rating"),
])
def test_a_misspelt_optional_or_nested_key_is_named_with_the_nearest(
        run: Run, tmp_path: Path, name: str, place: str, wrong: str, hint: str) -> None:
    data = example(name)
    target: Any = data
    for key in place.split("."):
        key_: Any = int(key) if key.isdigit() else key
        target = target.setdefault(key_, {}) if isinstance(target, dict) else target[key_]
    target[wrong] = 1
    code, _, err = run("attack", str(write(tmp_path, data)))
    assert code == 2
    path = place.replace(".0.", "[0].") + "." + wrong
    assert f": {path}: unknown key '{wrong}'; did you mean '{hint}'?" in err, err


def test_a_misspelt_top_level_key_is_named_with_the_nearest(run: Run, tmp_path: Path) -> None:
    data = example("tristat/vampire")
    data["titel"] = data.pop("title")
    code, _, err = run("attack", str(write(tmp_path, data)))
    assert code == 2
    assert ": titel: unknown key 'titel'; did you mean 'title'?" in err


@pytest.mark.parametrize(("name", "field", "wrong", "hint"), [
    ("tristat/vampire", "skills", "mele", "melee"),
    ("contest/dodge", "attributes", "agilty", "agility"),
    ("c22/one-tough-lizard", "skills", "genral", "general"),
    ("genesys/brawl", "skills", "Brawll", "Brawl"),
])
def test_an_unknown_skill_or_attribute_is_named_with_the_nearest(
        run: Run, tmp_path: Path, name: str, field: str, wrong: str, hint: str) -> None:
    data = example(name)
    entry = data["combatants"][0]
    if isinstance(entry.get(field), dict):
        entry[field][wrong] = 1
    else:
        entry[field] = {wrong: 1}
    code, _, err = run("attack", str(write(tmp_path, data)))
    assert code == 2
    kind = field.rstrip("s")
    assert f": combatants[0].{field}.{wrong}: unknown {kind} '{wrong}'; did you mean '{hint}'?" \
        in err, err
