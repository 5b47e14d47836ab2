"""Option advice: the attacker's options and the defender's answers, ranked by exact odds.

For a scenario's attack, :func:`advise` lists

* the attacker's options: every action ``system.actions`` offers against the same
  defender, carried into the scenario's situation (the fields that do not vary between
  those actions, such as a range band or a path, keep the scenario's values), crossed
  with the choices a fight does not enumerate (:data:`EXTRA_CHOICES`: the weapon-card
  split, trick-shot sizes, a spending policy); each with its odds against the reaction
  the scenario declares and against the defender's best reply;
* the defender's answers: each reaction ``system.reactions`` offers against the attack
  as written, and each defensive action prepared beforehand (total defense, a guarded
  stance, a guard from an ally), as the exact mixture over what that action leads to.

Every number is exact (:func:`~fracas.odds.attack.attack_odds`), never sampled.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pydantic import BaseModel

from fracas.core.model import DELAY, Action, Roster, apply_events
from fracas.core.scenario import Scenario
from fracas.core.system import RuleSystem
from fracas.core.words import Words
from fracas.dice.distribution import Distribution
from fracas.dice.rollers import ExactRoller, Roller
from fracas.encounter.labels import action_words, option_words, reaction_words
from fracas.errors import FracasError, InputError
from fracas.odds.attack import AttackOdds, attack_odds
from fracas.odds.text import fraction_text

# Choices of the attacker that a fight's action list leaves at their default, per system:
# field -> values (None: every value the field's type allows).
EXTRA_CHOICES: dict[str, dict[str, tuple[Any, ...] | None]] = {
    "c22": {"weapon_card": ("auto", "higher", "lower"), "raised": None},
    "tristat": {"trick_shot": (0, 1, 2, 3, 4)},
    "genesys": {"advantage_policy": None},
}
MAX_CROSSED = 160  # past this many options, extra choices vary the attack as written only


@dataclass(frozen=True)
class Reply:
    """One answer of the defender: its label and the exact odds of the attack."""

    label: str
    action: Action
    odds: AttackOdds
    note: str = ""


@dataclass(frozen=True)
class Option:
    """One option of the attacker, against the declared reaction and every reply."""

    label: str
    action: Action
    odds: AttackOdds
    replies: tuple[Reply, ...]
    as_written: bool = False

    @property
    def best_reply(self) -> Reply:
        return min(self.replies, key=lambda r: _harm(r.odds))


@dataclass
class Advice:
    """Both rankings for one attack."""

    attack: Action
    options: list[Option] = field(default_factory=list)
    defenses: list[Reply] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    situation: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "attacker": self.attack.actor,
            "defender": self.attack.target,
            "situation": self.situation,
            "options": [_option_json(o) for o in self.options],
            "defenses": [_reply_json(r) for r in self.defenses],
            "skipped": self.skipped,
        }


def _harm(odds: AttackOdds) -> tuple[Fraction, Fraction]:
    return odds.expected_damage, odds.p_taken_out


def options_mapping(action: Action) -> dict[str, Any]:
    """The action's options as a scenario's ``attack.options`` would write them."""
    if action.options is None:
        return {}
    return dict(action.options.model_dump(mode="json", exclude_defaults=True))


def _odds_json(odds: AttackOdds) -> dict[str, Any]:
    return {"expected_damage": float(odds.expected_damage),
            "expected_damage_exact": fraction_text(odds.expected_damage),
            "p_hit": float(odds.p_hit), "p_hit_exact": fraction_text(odds.p_hit),
            "p_taken_out": float(odds.p_taken_out),
            "p_taken_out_exact": fraction_text(odds.p_taken_out)}


def _reply_json(r: Reply) -> dict[str, Any]:
    out = {"label": r.label, "kind": r.action.kind, "options": options_mapping(r.action),
           **_odds_json(r.odds)}
    if r.note:
        out["note"] = r.note
    return out


def _option_json(o: Option) -> dict[str, Any]:
    best = o.best_reply
    return {"label": o.label, "as_written": o.as_written, "kind": o.action.kind,
            "weapon": o.action.weapon, "options": options_mapping(o.action),
            **_odds_json(o.odds),
            "best_reply": {"label": best.label, **_odds_json(best.odds)},
            "replies": [_reply_json(r) for r in o.replies]}


# -- building the options ----------------------------------------------------------------
def _varying(actions: Sequence[Action]) -> set[str]:
    """Option fields whose value differs between these actions."""
    models = [a.options for a in actions if a.options is not None]
    if len(models) < 2:
        return set()
    out = set()
    for name in type(models[0]).model_fields:
        values = {repr(getattr(m, name, None)) for m in models}
        if len(values) > 1:
            out.add(name)
    return out


def _with(action: Action, update: dict[str, Any], **changes: Any) -> Action:
    opts = action.options
    if opts is not None and update:
        opts = opts.model_copy(update={k: v for k, v in update.items()
                                       if k in type(opts).model_fields})
    return Action(changes.get("actor", action.actor), changes.get("target", action.target),
                  changes.get("weapon", action.weapon), changes.get("kind", action.kind), opts,
                  changes.get("offensive", action.offensive))


def _legal(system: RuleSystem, action: Action, roster: Roster) -> bool:
    try:
        system.check_action(action, roster)
    except FracasError:
        return False
    return True


def _field_values(model: type[BaseModel], name: str) -> tuple[Any, ...]:
    """Every value a bool or Literal field (optional or not) allows."""
    annotation = model.model_fields[name].annotation
    if annotation is bool:
        return (False, True)
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    values: list[Any] = []
    for arg in typing.get_args(annotation):
        if typing.get_origin(arg) is typing.Literal:
            values += typing.get_args(arg)
    return tuple(values)


def _unique(actions: Iterable[Action]) -> list[Action]:
    seen: dict[Action, None] = {}
    for a in actions:
        seen.setdefault(a, None)
    return list(seen)


def attacker_options(system: RuleSystem, attack: Action, roster: Roster) -> list[Action]:
    """The attack as written first, then every other option against the same defender."""
    offered = [a for a in system.actions(attack.actor, roster) if a.target == attack.target]
    reaction_fields = _varying(system.reactions(attack, roster))
    same_model = [a for a in offered if type(a.options) is type(attack.options)]
    choices = _varying(same_model) - reaction_fields
    keep = {f: getattr(attack.options, f) for f in reaction_fields}
    out = [attack]
    for o in offered:
        tries = []
        if type(o.options) is type(attack.options) and attack.options is not None:
            merged = {f: getattr(o.options, f) for f in choices}
            tries.append(_with(attack, merged, weapon=o.weapon, kind=o.kind,
                               offensive=o.offensive))
        tries += [_with(o, keep), o]
        out += [next((t for t in tries if _legal(system, t, roster)), o)]
    extra = EXTRA_CHOICES.get(system.id, {})
    for name, values in extra.items():
        if attack.options is None or name not in type(attack.options).model_fields:
            continue
        values = values or _field_values(type(attack.options), name)
        bases = out if len(out) * len(values) <= MAX_CROSSED else [attack]
        out += [_with(b, {name: v}) for b in bases for v in values
                if type(b.options) is type(attack.options)]
    return [a for a in _unique(out) if a == attack or _legal(system, a, roster)]


def situation(options: Sequence[Action], hide: set[str], words: Words
              ) -> tuple[set[str], str]:
    """Option fields every option shares (the situation, not a choice), and their text
    in the data pack's words."""
    models = [o.options for o in options if o.options is not None]
    if not models or any(type(m) is not type(models[0]) for m in models):
        return set(), ""
    shared = set(type(models[0]).model_fields) - _varying(options) - hide
    dumped = models[0].model_dump(exclude_defaults=True)
    text = ", ".join(words.options_text({k: v for k, v in dumped.items() if k in shared}))
    return shared, text


def _replies(system: RuleSystem, action: Action, roster: Roster) -> list[tuple[str, Action]]:
    """The defender's reactions to ``action``, each with its label in the data pack's
    words (what it changes from the action as declared, as a table is asked)."""
    variants = system.reactions(action, roster)
    return [(reaction_words(v, variants[0], system.words, variants), v) for v in variants]


# -- defenses --------------------------------------------------------------------------------
def _after(roller: Roller, system: RuleSystem, action: Action, roster: Roster) -> Roster:
    return apply_events(roster, system.resolve(roller, action, roster).events)


def _prepared(system: RuleSystem, attack: Action, roster: Roster) -> list[Action]:
    """Defensive actions taken before the attack: the defender's own (total defense, a
    guarded stance, ...) and an ally's aimed at the defender (a guard)."""
    target = attack.target
    if target is None:
        return []
    out = []
    for cid in roster:
        if cid == attack.actor:
            continue
        for a in system.actions(cid, roster):
            if a.offensive or a.kind == DELAY:  # a delay moves a slot: nothing to resolve
                continue
            if (cid == target and a.target in (None, target)) or (cid != target
                                                                   and a.target == target):
                out.append(a)
    return _unique(out)


def _prepared_odds(system: RuleSystem, prep: Action, attack: Action, roster: Roster,
                   exact: ExactRoller) -> AttackOdds | None:
    rosters = exact.distribution(_after, system, prep, roster)
    parts: list[tuple[Distribution[Any], Fraction]] = []
    for after, p in rosters.probabilities().items():
        if not _legal(system, attack, after):
            return None
        parts.append((attack_odds(system, attack, after, exact).joint, p))
    return AttackOdds(Distribution.mixture(parts), attack)


def advise(scenario: Scenario) -> Advice:
    """Rank the attacker's options and the defender's answers for the scenario's attack."""
    attack = scenario.attack
    if attack is None or attack.target is None:
        raise InputError("advice needs an attack with a defender", file=scenario.path,
                         path="attack", allowed="attack: {attacker, defender, weapon, options}")
    system, roster = scenario.system, scenario.roster
    exact = ExactRoller(summaries_only=True)  # advice reads each resolution's summary only
    advice = Advice(attack)
    words = system.words
    reaction_fields = _varying(system.reactions(attack, roster))
    offered = attacker_options(system, attack, roster)
    shared, advice.situation = situation(offered, reaction_fields, words)
    hide = shared | reaction_fields
    if len({a.weapon for a in offered}) == 1:
        hide.add("weapon")
    for action in offered:
        replies = tuple(Reply(label, v, attack_odds(system, v, roster, exact))
                        for label, v in _replies(system, action, roster))
        odds = attack_odds(system, action, roster, exact)
        label = option_words(action, words, hide) + (" (as written)" if action == attack
                                                     else "")
        advice.options.append(Option(label, action, odds, replies, action == attack))
    advice.options.sort(key=lambda o: (-o.odds.expected_damage, -o.odds.p_taken_out,
                                       not o.as_written))
    for label, v in _replies(system, attack, roster):
        if v == attack:
            label += " (as written)"
        advice.defenses.append(Reply(label, v, attack_odds(system, v, roster, exact)))
    for prep in _prepared(system, attack, roster):
        who = "" if prep.actor == attack.target else f"{roster[prep.actor].name}: "
        label = f"{who}{action_words(prep, roster, words)} first"
        try:
            prepared = _prepared_odds(system, prep, attack, roster, exact)
        except FracasError as err:
            advice.skipped.append(f"{label}: {err}")
            continue
        if prepared is None:
            advice.skipped.append(f"{label}: the attack is then no longer possible")
            continue
        advice.defenses.append(Reply(label, prep, prepared, "prepared before the attack"))
    advice.defenses.sort(key=lambda r: _harm(r.odds))
    return advice
