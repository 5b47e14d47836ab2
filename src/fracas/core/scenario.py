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
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from fracas.core.files import read_text
from fracas.core.model import Action, Roster
from fracas.core.strictyaml import DuplicateKeyError, TooDeepError, parse_yaml
from fracas.core.unknown import first_problem
from fracas.errors import InputError, format_loc, join_path

if TYPE_CHECKING:
    from fracas.core.system import RuleSystem

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
    text = read_text(p, "a YAML file")
    try:
        return parse_yaml(text)
    except DuplicateKeyError as err:
        raise InputError(str(err), file=str(p), path=f"line {err.line}",
                         allowed="each key once per mapping") from None
    except TooDeepError as err:
        raise InputError(str(err), file=str(p),
                         allowed=f"at most {err.limit} levels of nesting") from None
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
    first, unknown, others = first_problem(errors, model)
    path = _where(first, prefix)
    if unknown is not None:
        message, allowed = unknown
    else:
        message = _said(first)
        allowed = _allowed(first, model)
    if others:  # the rest named too, each with what it allows: a file mended in one go
        told = [_told(message, allowed)]
        told += [f"{_where(e, prefix) or 'the file'}: {_told(_said(e), _allowed(e, model))}"
                 for e in others[:SHOWN]]  # (a missing field's allowed is said already)
        message, allowed = "; also ".join(told) + and_more(len(others) - SHOWN), None
    return InputError(message, file=file, path=path or None, allowed=allowed)


def and_more(rest: int) -> str:
    """The count of problems not named (none: nothing)."""
    return f"; and {rest} more problem{'s' if rest > 1 else ''}" if rest > 0 else ""


def _told(message: str, allowed: str | None) -> str:
    return f"{message} (allowed: {allowed})" if allowed and allowed != message else message


#: How many problems besides the first a validation error names (the rest are counted).
SHOWN = 5


def _where(error: Mapping[str, Any], prefix: str | None) -> str:
    """The entry path of one pydantic problem (under ``prefix``)."""
    loc = [p for p in error.get("loc", ()) if not (isinstance(p, str) and "[" in p)]
    path = format_loc(loc)
    if prefix:
        path = join_path(prefix, path) if path else prefix
    return path


def _said(error: Mapping[str, Any]) -> str:
    """What is wrong, in pydantic's words less its "Value error, " prefix; a missing field
    is said plainly."""
    if error.get("type") == "missing":
        return "this field is required"
    if error.get("type") == "extra_forbidden" and error.get("loc"):
        return f"unknown key {str(error['loc'][-1])!r}"
    return str(error.get("msg", "invalid")).removeprefix("Value error, ")
