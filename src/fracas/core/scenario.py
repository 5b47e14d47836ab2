"""Scenario files: the common YAML shape every system shares, validated with pydantic.

::

    system: tristat          # a registered system id
    rules: {}                # optional: overrides of the system's table defaults
    combatants:              # each: id, name, side, [policy], then the system's sheet
      - {id: joe, name: Joe, side: heroes, ...}
    attack:                  # optional: the action to resolve or analyse
      attacker: joe
      defender: vampire
      weapon: knife
      options: {}
    dice: [1, 1, 4]          # optional: pins the rolls, in the system's documented order
    max_rounds: 50           # optional, for fights

Every error names the file, the entry path (``combatants[1].weapons[0].damage``)
and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from fracas.core.model import Action, Roster
from fracas.core.strictyaml import DuplicateKeyError, parse_yaml
from fracas.core.system import RuleSystem
from fracas.core.unknown import first_problem, unknown_message
from fracas.errors import FracasError, InputError, format_loc, join_path

ID_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]*$"


class CombatantEntry(BaseModel):
    """The fields every combatant has; the rest of the entry is the system's sheet."""

    model_config = ConfigDict(extra="allow")
    id: str = Field(pattern=ID_PATTERN)
    name: str | None = None
    side: str = Field(min_length=1)
    policy: str | None = None


class AttackEntry(BaseModel):
    """The action to resolve: attacker, defender, weapon, the system's options."""

    model_config = ConfigDict(extra="forbid")
    attacker: str
    defender: str | None = None
    weapon: str | None = None
    action: str = "attack"
    options: dict[str, Any] = Field(default_factory=dict)


class ScenarioModel(BaseModel):
    model_config = ConfigDict(extra="allow")
    system: str
    title: str | None = None
    description: str | None = None
    rules: dict[str, Any] = Field(default_factory=dict)
    combatants: list[CombatantEntry] = Field(min_length=1)
    attack: AttackEntry | None = None
    dice: list[StrictInt | str] | None = None
    max_rounds: StrictInt = Field(default=50, ge=1, le=100_000)


@dataclass(frozen=True)
class Scenario:
    """A loaded scenario: its system (with rule overrides), roster and action."""

    system: RuleSystem
    roster: Roster
    attack: Action | None
    raw: Mapping[str, Any]
    path: str | None = None
    title: str | None = None
    max_rounds: int = 50

    def pins(self) -> Any:
        """The scripted roller's values, or None when the scenario pins no dice."""
        if not self.system.has_pins(self.raw):
            return None
        return self.system.script(self.raw)


def read_yaml(path: Path | str) -> Any:
    """Parse a YAML file; a missing file or bad YAML is an :class:`InputError` naming it."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", file=str(p)) from None
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read the file: {err}", file=str(p)) from None
    try:
        return parse_yaml(text)
    except DuplicateKeyError as err:
        raise InputError(str(err), file=str(p), path=f"line {err.line}",
                         allowed="each key once per mapping") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = getattr(err, "problem", None) or str(err)
        raise InputError(f"not valid YAML: {problem}", file=str(p), path=where) from None
    except ValueError:  # an integer of thousands of digits (Python's int limit)
        raise InputError("a number of more than 4300 digits", file=str(p),
                         allowed="numbers of at most 4300 digits") from None


def _allowed(error: Mapping[str, Any], model: type[BaseModel] | None) -> str | None:
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind == "extra_forbidden" and model is not None:
        return "fields " + ", ".join(model.model_fields)
    if "expected" in ctx:
        return str(ctx["expected"])
    for key, words in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
        if key in ctx:
            return f"a value {words} {ctx[key]}"
    if kind == "missing":
        return "this field is required"
    if kind.startswith("int"):
        return "a whole number"
    if kind.startswith("bool"):
        return "true or false"
    if kind.startswith("string"):
        return "text" if "pattern" not in ctx else f"text matching {ctx['pattern']}"
    if kind.startswith("dict") or kind == "model_type":
        return "a mapping of fields"
    if kind.startswith("list") or kind.startswith("tuple"):
        return "a list"
    return None


def validation_error(err: ValidationError, file: str | None, prefix: str | None,
                     model: type[BaseModel] | None = None) -> InputError:
    """The first problem of a pydantic error as an :class:`InputError` (with a count of more).

    A misspelt key comes first, as "unknown key ...; did you mean ...?", rather than the
    "field required" of the key it was meant to be (:mod:`fracas.core.unknown`).
    """
    errors = err.errors()
    first, unknown, more = first_problem(errors, model)
    loc = [p for p in first.get("loc", ()) if not (isinstance(p, str) and "[" in p)]
    path = format_loc(loc)
    if prefix:
        path = join_path(prefix, path) if path else prefix
    if unknown is not None:
        message, allowed = unknown
    else:
        message = str(first.get("msg", "invalid"))
        if message.startswith("Value error, "):
            message = message[len("Value error, "):]
        allowed = _allowed(first, model)
    if more:
        message += f" (and {more} more problem(s))"
    return InputError(message, file=file, path=path or None, allowed=allowed)


def load_scenario(path: Path | str) -> Scenario:
    """Load and validate a scenario file."""
    data = read_yaml(path)
    return scenario_from_mapping(data, file=str(path))


HERE = Path()  # scenario_from_mapping's default folder: the file's, else the working directory


def scenario_from_mapping(data: Any, file: str | None = None, folder: Path | None = HERE
                          ) -> Scenario:
    """Validate a scenario given as a mapping (as parsed from YAML). Files it names (a GM's
    table) are read from ``folder``: by default the file's folder, else the working
    directory; ``None``: no folder, so it may name no file (a scenario sent to the server)."""
    from fracas.core.registry import get_system

    if not isinstance(data, Mapping):
        raise InputError("a scenario must be a mapping with system: and combatants:",
                         file=file, allowed="a YAML mapping")
    try:
        model = ScenarioModel.model_validate(dict(data))
    except ValidationError as err:
        raise validation_error(err, file, None, ScenarioModel) from None
    try:
        system_cls = get_system(model.system)
    except InputError as err:
        raise err.located(file=file, prefix="system") from None
    extra = set(model.model_extra or {}) - set(system_cls.scenario_keys)
    if extra:
        allowed = sorted(set(ScenarioModel.model_fields) | set(system_cls.scenario_keys))
        key = sorted(extra)[0]
        raise InputError(f"{unknown_message('key', key, allowed)} (in a {model.system} "
                         "scenario)", file=file, path=key, allowed=", ".join(allowed))
    try:
        if folder is HERE:
            folder = Path(file).parent if file else Path.cwd()
        system = system_cls(system_cls.resolve_files(model.rules, folder))
    except InputError as err:
        raise err.located(file=file) from None

    combatants = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(model.combatants):
        prefix = f"combatants[{i}]"
        if entry.id in seen:
            raise InputError(f"the id {entry.id!r} is already used by combatants[{seen[entry.id]}]",
                             file=file, path=f"{prefix}.id", allowed="a unique id per combatant")
        seen[entry.id] = i
        sheet = dict(entry.model_extra or {})
        try:
            combatants.append(system.build_combatant(entry.id, entry.name or entry.id,
                                                     entry.side, sheet, entry.policy))
        except ValidationError as err:
            raise validation_error(err, file, prefix, system.sheet_model) from None
        except InputError as err:
            raise err.located(file=file, prefix=prefix) from None
    roster = Roster(combatants)

    action = None
    if model.attack is not None:
        a = model.attack
        try:
            action = system.parse_action(roster, a.attacker, a.defender, a.weapon, a.options,
                                         kind=a.action)
        except ValidationError as err:
            raise validation_error(err, file, "attack", system.options_model) from None
        except InputError as err:
            raise err.located(file=file) from None
    scenario = Scenario(system, roster, action, dict(data), file, model.title, model.max_rounds)
    try:
        scenario.pins()
    except InputError as err:
        raise err.located(file=file) from None
    except FracasError:
        raise
    return scenario
