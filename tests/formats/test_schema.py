"""``fracas schema``: a JSON Schema per system, kept in ``schemas/``, that every example
file names on its first line and validates against; it rejects what the loader rejects."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from fracas.cli.formats import schema_text
from fracas.registry.scenarios import load_scenario
from tests.formats.conftest import EXAMPLES, ROOT, Run, example, write

BUILT_IN = ("c22", "contest", "genesys", "tristat", "zamani")
FILES = sorted(EXAMPLES.glob("*/*.yaml"))


def schema(system_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "schemas" / f"{system_id}.json").read_text())
    return data


@pytest.mark.parametrize("system_id", BUILT_IN)
def test_the_schema_files_are_up_to_date(system_id: str) -> None:
    """Regenerate with ``fracas schema --out schemas`` after changing a model."""
    assert (ROOT / "schemas" / f"{system_id}.json").read_text() == schema_text(system_id)


def test_fracas_schema_prints_the_schema_file(run: Run) -> None:
    code, out, _ = run("schema", "genesys")
    assert code == 0
    assert json.loads(out) == schema("genesys")
    jsonschema.Draft202012Validator.check_schema(json.loads(out))


def test_fracas_schema_of_an_unknown_system_is_a_clean_error(run: Run) -> None:
    code, out, err = run("schema", "gurps")
    assert code == 2 and out == ""
    assert err.startswith("fracas: error: no rule system 'gurps' (allowed: c22, contest, ")
    assert err.count("\n") == 1


def test_fracas_schema_out_writes_one_file_per_system(run: Run, tmp_path: Path) -> None:
    code, _, _ = run("schema", "--out", str(tmp_path))
    assert code == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert set(written) >= {f"{s}.json" for s in BUILT_IN}
    assert (tmp_path / "c22.json").read_text() == schema_text("c22")


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_example_names_its_schema_and_validates_against_it(path: Path) -> None:
    first = path.read_text().splitlines()[0]
    system_id = path.parent.name
    assert first == f"# yaml-language-server: $schema=../../schemas/{system_id}.json"
    assert (path.parent / first.split("=", 1)[1]).resolve() == ROOT / "schemas" / (
        f"{system_id}.json")
    data = yaml.safe_load(path.read_text())
    jsonschema.validate(data, schema(data["system"]), cls=jsonschema.Draft202012Validator)
    load_scenario(path)  # and the loader agrees


def _rejected_by_both(tmp_path: Path, data: dict[str, Any]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema(data["system"]),
                            cls=jsonschema.Draft202012Validator)
    with pytest.raises(ValueError):
        load_scenario(write(tmp_path, data))


@pytest.mark.parametrize(("name", "edit"), [
    ("tristat/vampire", lambda d: d["combatants"][0].update(body=True)),
    ("tristat/vampire", lambda d: d["combatants"][0].update(body="2")),
    ("tristat/vampire", lambda d: d["combatants"][0].update(bdy=3)),
    ("tristat/vampire", lambda d: d["combatants"][0].pop("side")),
    ("contest/dodge", lambda d: d["attack"]["options"].update(boons=True)),
    ("contest/dodge", lambda d: d["rules"].update(check={"die": "20"})
     if "rules" in d else d.update(rules={"check": {"die": "20"}})),
    ("genesys/brawl", lambda d: d["combatants"][0].update(wound_treshold=12)),
    ("c22/one-tough-lizard", lambda d: d["combatants"][0].update(position=[1.5, 2])),
    ("zamani/regular_melee", lambda d: d.update(max_rounds="2")),
    ("zamani/regular_melee", lambda d: d.update(sytem="zamani")),
])
def test_the_schema_rejects_what_the_loader_rejects(tmp_path: Path, name: str,
                                                    edit: Any) -> None:
    data = example(name)
    edit(data)
    _rejected_by_both(tmp_path, data)


@pytest.mark.parametrize("system_id", BUILT_IN)
def test_rules_overrides_may_name_one_key(tmp_path: Path, system_id: str) -> None:
    """A ``rules:`` override names only what it changes: no key of it is required."""
    body = schema(system_id)
    rules = body["properties"]["rules"]
    text = json.dumps(rules) + json.dumps({k: v for k, v in body["$defs"].items()
                                           if k.startswith("rules.")})
    assert '"required"' not in text
    assert rules.get("properties"), system_id
