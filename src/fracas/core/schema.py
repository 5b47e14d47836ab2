"""A JSON Schema of a whole scenario file of one system, from its pydantic models.

Editors use it to complete and check scenario files (``# yaml-language-server:
$schema=...``). The schema is built from the same models that validate a scenario when it
loads: the common shape (:mod:`fracas.core.scenario`), the system's sheet (each combatant),
its options (``attack.options``) and its table defaults (``rules:``, every key optional
since an override changes only what it names). ``fracas schema SYSTEM`` prints it;
``schemas/<id>.json`` in the repository holds each built-in system's.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel

from fracas.core.scenario import ID_PATTERN, AttackEntry, ScenarioModel
from fracas.core.system import RuleSystem

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _model_schema(model: type[BaseModel], prefix: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A model's schema (validation mode) and its definitions, names prefixed."""
    schema = model.model_json_schema(ref_template="#/$defs/" + prefix + "{model}")
    defs = {prefix + name: body for name, body in schema.pop("$defs", {}).items()}
    return schema, defs


def _optional(schema: Any) -> Any:
    """The schema with no key required anywhere (for partial ``rules:`` overrides)."""
    if isinstance(schema, dict):
        return {k: _optional(v) for k, v in schema.items() if k != "required"}
    if isinstance(schema, list):
        return [_optional(v) for v in schema]
    return schema


def _pairs_as_mappings(schema: Any) -> Any:
    """Accept a mapping wherever a model stores one as (name, value) pairs (skills,
    attributes): ``{melee: 2}`` is what a GM writes."""
    if isinstance(schema, dict):
        out = {k: _pairs_as_mappings(v) for k, v in schema.items()}
        items = out.get("items")
        if (out.get("type") == "array" and isinstance(items, dict)
                and items.get("minItems") == 2 and items.get("maxItems") == 2
                and len(items.get("prefixItems", ())) == 2
                and items["prefixItems"][0] == {"type": "string"}):
            mapping = {"type": "object", "additionalProperties": items["prefixItems"][1]}
            pairs = {k: v for k, v in out.items() if k not in ("title", "default")}
            keep = {k: v for k, v in out.items() if k in ("title", "default")}
            return {**keep, "anyOf": [mapping, pairs]}
        return out
    if isinstance(schema, list):
        return [_pairs_as_mappings(v) for v in schema]
    return schema


def scenario_schema(system: type[RuleSystem]) -> dict[str, Any]:
    """The JSON Schema of a scenario file of ``system`` (draft 2020-12)."""
    sheet, defs = _model_schema(system.sheet_model, "")
    options, option_defs = _model_schema(system.options_model, "options.")
    defs.update(option_defs)
    rules: dict[str, Any] = {"type": "object", "additionalProperties": False,
                             "description": "no table defaults to override"}
    if system.defaults_model is not None:
        rules, rule_defs = _model_schema(system.defaults_model, "rules.")
        defs.update(_optional(rule_defs))
        rules = _optional(rules)
        rules["description"] = ("overrides of the table defaults (data/defaults.yaml); "
                                "each key optional")
    common = ScenarioModel.model_json_schema()["properties"]
    attack = AttackEntry.model_json_schema()
    attack["properties"]["options"] = options
    combatant = copy.deepcopy(sheet)
    combatant["title"] = f"A {system.id} combatant: id, name, side, policy, then its sheet"
    combatant["properties"] = {
        "id": {"type": "string", "pattern": ID_PATTERN, "description": "unique in the file"},
        "name": {"type": "string"},
        "side": {"type": "string", "minLength": 1},
        "policy": {"type": "string"},
        **sheet["properties"],
    }
    combatant["required"] = ["id", "side", *sheet.get("required", [])]
    properties: dict[str, Any] = {
        "system": {"const": system.id},
        "title": common["title"],
        "description": common["description"],
        "rules": rules,
        "combatants": {"type": "array", "minItems": 1, "items": combatant},
        "attack": attack,
        "dice": common["dice"],
        "max_rounds": common["max_rounds"],
    }
    for key in sorted(system.scenario_keys):
        properties[key] = {"description": f"{system.id}: see docs/systems/{system.id}.md"}
    schema: dict[str, Any] = {
        "$schema": DIALECT,
        "title": f"fracas scenario: {system.title}",
        "description": f"A {system.id} scenario file (docs/scenarios.md).",
        "type": "object",
        "required": ["system", "combatants"],
        "additionalProperties": False,
        "properties": properties,
        "$defs": dict(sorted(defs.items())),
    }
    result: dict[str, Any] = _pairs_as_mappings(schema)
    return result
