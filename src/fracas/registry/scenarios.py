"""Scenario files read by their system: ``system: tristat`` names the rules that validate the rest.

Above the systems (it finds one by id in :mod:`fracas.registry`); the scenario's shape, the
:class:`~fracas.core.scenario.Scenario` value and the validation messages are in
:mod:`fracas.core.scenario`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from fracas.core.model import Roster
from fracas.core.scenario import Scenario, ScenarioModel, read_yaml, validation_error
from fracas.core.unknown import unknown_message
from fracas.errors import InputError
from fracas.registry import get_system


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
    _check_pins(scenario, file)
    return scenario


def _check_pins(scenario: Scenario, file: str | None) -> None:
    """Pinned dice (``dice:``, or a system's own pins) are checked once, as the scenario is
    read, whatever the command: they must be exactly the values the scenario's attack rolls
    (each one a value its die can show)."""
    from fracas.dice import ScriptedRoller

    try:
        pins = scenario.pins()
    except InputError as err:
        raise err.located(file=file) from None
    if pins is None:
        return
    if scenario.attack is None:
        raise InputError("pinned dice, but no attack to roll them for", file=file,
                         path="dice", allowed="an attack: entry, or no pinned dice")
    try:
        ScriptedRoller(pins).run(scenario.system.resolve, scenario.attack, scenario.roster)
    except InputError as err:
        raise err.located(file=file, prefix=err.path or "dice") from None
