"""The conformance kit: checks that any rule system must pass, built-in or third-party.

Use it from your tests::

    from fracas.testing import check_system
    def test_my_system_conforms():
        check_system(MySystem, ["examples/mine/duel.yaml", ...])

or, for a system packaged on its own (a plug-in), from the package's checkout, installed
or not (its entry point read from ``pyproject.toml``, its examples from its package)::

    from fracas.testing import check_package
    def test_my_package_conforms():
        check_package(Path(__file__).parents[1])

Each check raises :class:`AssertionError` saying what is wrong. The checks:

1. the class declares id, title, seed, outcomes, a sheet model and frozen option models;
2. every scenario loads; its roster and action are hashable (the exact roller memoises);
3. resolution with the same seed gives the same events (no hidden randomness);
4. events cite a rule, render to one non-empty line and survive a JSON round trip;
5. state changes are ``Changed`` events on existing fields, and folding them works;
6. exact odds sum to 1, name only declared outcomes, give damage >= 0, and every
   randomly sampled result is a possible exact result;
7. pinned dice in a scenario are used exactly (none missing, none left over);
8. fight hooks: initiative gives slots of known combatants; an active combatant
   facing an active enemy has at least one action, and each action resolves; under a
   roller that does not narrate (the simulation's, see
   :func:`~fracas.dice.rollers.narrated`) initiative, the first actions and the turn,
   round and fight hooks draw the same dice and make the same slots, changes and
   outcomes as under one that does;
9. live play: with a person deciding for everybody (and the GM), every choice the
   system offers - actions, reactions and its own mid-resolution choices (see
   :mod:`fracas.core.choices`) - is a JSON-able decision of a known controller whose
   every option a person can take (and take back), and dice can be typed or rolled;
10. words: every action, reaction, choice before initiative and option the scenario
    offers has its words in the system's data pack (``data/words.yaml``), so that menus,
    prompts and narration speak the table's language, not code identifiers;
11. identifiers (:func:`check_identifiers`, on an example fight): what a table reads while
    the fight is played live (prompts, options, dice requests, the narration, each
    combatant's state as its labels and values) has no code identifier in it
    (``snake_case``, ``None``, ``True``, ``key=value``, a combatant's id).
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from fracas.core.events import EFFECTS, Changed, event_from_dict
from fracas.core.model import Resolution, Slot, apply_events
from fracas.core.scenario import Scenario
from fracas.core.system import RuleSystem
from fracas.dice.rollers import RandomRoller, ScriptedRoller
from fracas.errors import FracasError
from fracas.odds.attack import attack_odds
from fracas.registry.scenarios import load_scenario


def _check_class(system_cls: type[RuleSystem]) -> None:
    for attr in ("id", "title", "seed", "outcomes", "sheet_model"):
        assert getattr(system_cls, attr, None), f"{system_cls.__name__} must declare {attr}"
    assert isinstance(system_cls.outcomes, tuple) and system_cls.outcomes, "outcomes: a tuple"
    assert issubclass(system_cls.sheet_model, BaseModel), "sheet_model must be a pydantic model"
    assert system_cls.options_model.model_config.get("frozen"), (
        f"{system_cls.id}: options_model must be frozen (hashable) for exact odds")


def _check_events(result: Resolution, scenario: Scenario, where: str) -> None:
    assert result.events, f"{where}: a resolution must say what happened (no events)"
    state_fields = {cid: set(vars(c.state)) if hasattr(c.state, "__dict__") else
                    set(c.state.__dataclass_fields__) for cid, c in scenario.roster.items()}
    for e in result.events:
        assert e.rule.strip(), f"{where}: {e.type} cites no rule"
        line = e.text()
        assert line.strip() and "\n" not in line, f"{where}: {e.type} must render to one line"
        back = event_from_dict(json.loads(json.dumps(e.to_dict())))
        assert back == e, f"{where}: {e.type} does not survive a JSON round trip"
        if isinstance(e, Changed):
            assert e.target in state_fields, f"{where}: Changed names unknown {e.target!r}"
            assert e.field in state_fields[e.target], (
                f"{where}: Changed names unknown field {e.target}.{e.field}")
    apply_events(scenario.roster, result.events)
    assert result.outcome in type(scenario.system).outcomes, (
        f"{where}: outcome {result.outcome!r} is not declared in outcomes")
    assert result.damage >= 0, f"{where}: damage must be >= 0"


def check_scenario(scenario: Scenario, samples: int = 25) -> None:
    """Checks 2-7 on one loaded scenario."""
    where = scenario.path or "scenario"
    system = scenario.system
    hash(scenario.roster)
    if scenario.attack is None:
        return
    hash(scenario.attack)
    action, roster = scenario.attack, scenario.roster
    first = system.resolve(RandomRoller(11), action, roster)
    again = system.resolve(RandomRoller(11), action, roster)
    assert first == again, f"{where}: the same seed gave different results"
    _check_events(first, scenario, where)

    odds = attack_odds(system, action, roster)
    assert sum(odds.joint.probabilities().values()) == 1, f"{where}: odds do not sum to 1"
    for name in odds.outcomes:
        assert name in type(system).outcomes, f"{where}: undeclared outcome {name!r} in odds"
    assert odds.damage.min() >= 0, f"{where}: negative damage in odds"
    rng = RandomRoller(2024)
    for _ in range(samples):
        sampled = system.resolve(rng, action, roster)
        _check_events(sampled, scenario, where)
        assert sampled.summary() in odds.joint, (
            f"{where}: a sampled result {sampled.summary()} has exact probability 0")

    pins = scenario.pins()
    if pins is not None:
        scripted = ScriptedRoller(pins)
        pinned = scripted.run(system.resolve, action, roster)
        _check_events(pinned, scenario, where)
        assert pinned.summary() in odds.joint, f"{where}: the pinned result is impossible"


def check_fight_hooks(scenario: Scenario) -> None:
    """Check 8 on one scenario's roster."""
    where = scenario.path or "scenario"
    system, roster = scenario.system, scenario.roster
    slots, _events = system.initiative(RandomRoller(5), roster, 1)
    assert slots, f"{where}: initiative gave no slots"
    for slot in slots:
        for cid in slot.candidates:
            assert cid in roster, f"{where}: a slot names unknown combatant {cid!r}"
    for cid, combatant in roster.items():
        _current, maximum = system.health(combatant)
        assert maximum > 0, f"{where}: {cid} has no positive maximum health"
        enemies = [e for e in roster.enemies_of(cid) if system.is_active(e)]
        if not system.is_active(combatant) or not enemies:
            continue
        actions = system.actions(cid, roster)
        assert actions, f"{where}: active {cid} facing active enemies has no action"
        for action in actions[:3]:
            result = system.resolve(RandomRoller(3), action, roster)
            _check_events(result, scenario, f"{where} ({cid}: {action.kind})")
            for seed in (3, 4):
                _same_untold(f"{where} ({cid}: {action.kind})", seed, system.resolve, action,
                             roster)
        _same_untold(f"{where} ({cid}'s turn starting)", 5, system.start_turn, cid, roster)
    _same_untold(f"{where} (the fight starting)", 6, system.start_fight, roster)
    _same_untold(f"{where} (round 1 ending)", 7, system.end_round, roster, 1)
    for number in (1, 2):
        _same_untold(f"{where} (round {number}'s initiative)", number, system.initiative,
                     roster, number)


class QuietRoller(RandomRoller):
    """A random roller whose rules need not narrate (as the simulation's lean loop): for
    a system's own tests of what it skips (:func:`~fracas.dice.rollers.narrated`)."""

    narrates = False


def _same_untold(where: str, seed: int, fn: Callable[..., Any], *args: Any) -> None:
    """``fn(roller, *args)`` under a roller that does not narrate, then under one that
    does, with the same seed: the same dice drawn (the stream stands at the same place
    after), the same changes, outcomes and added slots (and slots, for initiative).
    Whether a narrated call after a silent one still narrates (a cache keyed without the
    roller's flag) is the system's own to test: this check cannot tell a missing
    narration from none."""
    silent, told = QuietRoller(seed), RandomRoller(seed)
    untold_result, told_result = fn(silent, *args), fn(told, *args)
    assert _effects(untold_result) == _effects(told_result), (
        f"{where}: without narration the fight changes differently")
    assert silent.rng.bit_generator.state == told.rng.bit_generator.state, (
        f"{where}: without narration the dice are drawn differently")


def _effects(result: Any) -> Any:
    """What a result changes: the slots and the changing events of an initiative, the
    changing events of a resolution or a hook."""
    if isinstance(result, Resolution):
        return _effects(result.events)
    if isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], tuple) \
            and all(isinstance(s, Slot) for s in result[0]):
        return result[0], _effects(result[1])
    return [e for e in result if isinstance(e, EFFECTS)]


def check_live(scenario: Scenario, decisions: int = 12, seed: int = 1) -> None:
    """Check 9 on a scenario with two sides or more: the first ``decisions`` questions of
    a live session where people decide everything."""
    from fracas.encounter.session import Session

    where = scenario.path or "scenario"
    if len(scenario.roster.sides()) < 2:
        return
    people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
    session = Session.start(scenario, seed=seed, controllers=people, odds=False)
    for n in range(decisions):
        pending = session.pending
        if pending is None:
            break
        here = f"{where}: decision {n + 1} ({pending.kind}: {pending.prompt})"
        data = pending.to_dict()
        assert json.loads(json.dumps(data)) == data, f"{here}: not JSON-able"
        assert pending.who == "gm" or pending.who in session.state.roster, (
            f"{here}: asked of unknown {pending.who!r}")
        before = (session.state, pending, len(session.entries))
        if pending.kind == "dice":
            assert pending.dice is not None and pending.dice.allowed.strip(), (
                f"{here}: a dice request must say what a value may be")
            session.decide({"roll": True}, by=pending.who)
            continue
        ids = [o.id for o in pending.options]
        assert ids == [str(i + 1) for i in range(len(ids))] and ids, (
            f"{here}: options must be numbered 1..n")
        for option in ids:
            try:
                session.decide({"option": option}, by=pending.who)
            except FracasError as err:
                raise AssertionError(f"{here}: option {option} "
                                     f"({pending.options[int(option) - 1].label}) cannot be "
                                     f"taken: {err}") from None
            assert len(session.entries) > before[2], f"{here}: option {option} was not taken"
            session.undo()
            assert (session.state, session.pending, len(session.entries)) == before, (
                f"{here}: taking back option {option} did not restore the fight")
        session.decide({"option": ids[(n * 7) % len(ids)]}, by=pending.who)


def check_words(scenario: Scenario) -> int:
    """Check 10 on a scenario: each action kind and option key of every action, reaction
    and choice before initiative its combatants are offered (at the start) has words in
    the data pack, and each field its ``glance:`` list reads is in its combatants' state.
    Returns how many actions it looked at."""
    from fracas.encounter.decisions import option_keys

    system, roster = scenario.system, scenario.roster
    words = system.words
    pack = system.data_dir() / "words.yaml"
    where = scenario.path or "scenario"
    seen = 0
    for cid in roster:
        for action in [*system.actions(cid, roster), *system.round_choices(cid, roster, 1)]:
            variants = system.reactions(action, roster) if (
                action.target is not None and action.offensive) else []
            for variant in [action, *variants]:
                seen += 1
                assert variant.kind in words.actions, (
                    f"{where}: {cid}'s action {variant.kind!r} has no words: give it a "
                    f"label under actions: in {pack}")
                for key in option_keys(variant):
                    field, _, value = key.partition("=")
                    if value.startswith("{"):  # a nested option: its parts have words
                        continue
                    assert key in words.options or field in words.options, (
                        f"{where}: {cid}'s {variant.kind} option {key!r} has no words: "
                        f"give {field!r} (or {key!r}) a label under options: in {pack}")
    for cid, c in roster.items():  # the status's glance reads fields the state has
        state = c.state_dict()
        for glance in words.glance:
            for name in filter(None, (glance.field, glance.most)):
                assert name in state, (
                    f"{pack}: glance: {name!r} is no field of {cid}'s state (allowed: "
                    f"{', '.join(state)})")
        assert all(isinstance(text, str) and text for text in system.glance(c)), cid
    return seen


def check_system(system_cls: type[RuleSystem], scenario_paths: Iterable[Path | str],
                 samples: int = 25) -> None:
    """Run every check on a system and its example scenarios (at least one)."""
    _check_class(system_cls)
    paths = list(scenario_paths)
    assert paths, f"{system_cls.id}: conformance needs at least one example scenario"
    for path in paths:
        scenario = load_scenario(path)
        assert type(scenario.system) is system_cls, f"{path} is not a {system_cls.id} scenario"
        check_scenario(scenario, samples)
        check_fight_hooks(scenario)
        check_live(scenario)
        check_words(scenario)


IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b(?:None|True|False)\b"
                        r"|\b[A-Za-z_]+=[^\s,]+")


def table_text(scenario: Scenario, seed: int = 5, decisions: int = 400) -> str:
    """What a table reads of a fight played live (people decide for everybody and the GM,
    the options chosen at random with ``seed``, every die rolled), one line each: every
    prompt, option, dice request, event of the brief narration (as ``fracas play``
    tells them), and the labels of each combatant's state fields (as the web tracker
    shows them: a field without words in the data pack reads as its code name)."""
    from fracas.encounter.narration import field_label, is_brief, teller
    from fracas.encounter.session import Session

    people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
    session = Session.start(scenario, seed=seed, controllers=people, roll_all=True)
    words = scenario.system.words
    rng = random.Random(seed)
    lines: list[str] = []

    def states() -> None:
        for c in session.state.roster.values():
            lines.extend(field_label(k, words) for k in c.state_dict())

    states()
    for _ in range(decisions):
        pending = session.pending
        if pending is None:
            break
        lines.append(pending.prompt)
        if pending.dice is not None:
            lines += [pending.dice.what, pending.dice.needs]
            session.decide({"roll": True}, by=pending.who)
            continue
        lines += [o.label for o in pending.options]
        session.decide({"option": rng.choice(pending.options).id}, by=pending.who)
        states()
    tell = teller({cid: c.name for cid, c in session.state.roster.items()}, words)
    lines += [tell(e) for e in session.events if is_brief(e)]
    return "\n".join(line for line in lines if line)


def identifiers(scenario: Scenario, text: str) -> list[str]:
    """Identifier-shaped words in ``text`` (``snake_case``, ``None``, ``True``,
    ``False``, ``key=value``, and a combatant's id where its name differs), once the
    names people gave (combatants', weapons') are taken out."""
    names = {c.name for c in scenario.roster.values()}
    names |= {str(w.get("name")) for entry in scenario.raw.get("combatants", [])
              for w in dict(entry.get("sheet", entry)).get("weapons") or []
              if isinstance(w, dict)}
    for name in sorted(names, key=len, reverse=True):
        if name.strip():
            text = text.replace(name, " ")
    found = [m.group(0) for m in IDENTIFIER.finditer(text)]
    for cid, c in scenario.roster.items():
        if cid != c.name:
            found += re.findall(rf"(?<![\w/.-]){re.escape(cid)}(?![\w/.-])", text)
    return found


def check_identifiers(scenario: Scenario, seeds: Iterable[int] = (5, 6)) -> int:
    """Check 11 on a scenario with two sides or more: the fight played live (see
    :func:`table_text`) under each seed shows no code identifier. Returns how many lines
    it read."""
    if len(scenario.roster.sides()) < 2:
        return 0
    where = scenario.path or "scenario"
    read = 0
    for seed in seeds:
        text = table_text(scenario, seed)
        found = identifiers(scenario, text)
        assert not found, (f"{where}: a table reads code identifiers (give them words in "
                           f"the data pack, data/words.yaml): {sorted(set(found))[:10]}")
        read += text.count("\n") + 1
    return read


def examples_of(system_cls: type[RuleSystem]) -> list[Path]:
    """The example scenarios a system ships (``<package>/examples/*.yaml``)."""
    return sorted(system_cls.examples_dir().glob("*.yaml"))


def load_package(checkout: Path | str) -> list[type[RuleSystem]]:
    """The rule systems a package's checkout declares (its ``pyproject.toml``'s
    ``fracas.systems`` entry points), imported from the checkout whether it is installed
    or not (its ``src`` folder, else the checkout itself, put first on ``sys.path``; a
    copy of the module already imported in this process is used as it is) and
    registered, so that its scenarios load by their ``system:``."""
    import importlib
    import tomllib

    from fracas.registry import GROUP, register

    root = Path(checkout).resolve()
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    declared = project.get("project", {}).get("entry-points", {}).get(GROUP, {})
    assert declared, (f"{root / 'pyproject.toml'}: no [project.entry-points.\"{GROUP}\"]"
                      " table: name your RuleSystem class there (name = \"module:Class\")")
    source = root / "src" if (root / "src").is_dir() else root
    if str(source) not in sys.path:
        sys.path.insert(0, str(source))
    found = []
    for name, target in declared.items():
        module_name, _, attr = str(target).partition(":")
        system = getattr(importlib.import_module(module_name), attr, None)
        assert isinstance(system, type) and issubclass(system, RuleSystem), (
            f"entry point {name} = {target!r} is not a RuleSystem subclass")
        found.append(register(system))
    return found


def check_package(checkout: Path | str, samples: int = 25) -> list[type[RuleSystem]]:
    """Every check on each system a package's checkout declares (installed or not, see
    :func:`load_package`), on the examples it ships, and the identifier check on its
    example fights. Returns the systems checked."""
    checked = load_package(checkout)
    for system_cls in checked:
        paths = examples_of(system_cls)
        assert paths, (f"{system_cls.id}: no example scenarios in "
                       f"{system_cls.examples_dir()} (ship them there as package data)")
        check_system(system_cls, paths, samples)
        fights = [p for p in paths if p.name.endswith("-fight.yaml")] or paths
        for path in fights:
            check_identifiers(load_scenario(path))
    return checked
