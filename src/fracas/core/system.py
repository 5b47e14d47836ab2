"""The RuleSystem protocol: the named hooks a rule system implements.

A rule system is a subclass of :class:`RuleSystem` living in its own package
under ``fracas/systems/<id>/`` with its rules, its data pack (``data/*.yaml``) and
its docs page. docs/adding-a-system.md documents every public member, in these groups
(a test keeps that page complete):

* names and models: ``id``, ``title``, ``seed``, ``summary``, ``sheet_model``,
  ``options_model``, ``defaults_model``, ``outcomes``, ``scenario_keys``, ``commands``;
* rules: :meth:`initial_state` and :meth:`resolve` (required; ``resolve`` asks a
  :class:`~fracas.dice.Roller` for every random value and returns a
  :class:`~fracas.core.model.Resolution` whose events say what happened), building
  from a scenario (:meth:`build_combatant`, :meth:`parse_action`), the checks
  (:meth:`check_sheet`, :meth:`known_names`, :meth:`check_action`), pins
  (:meth:`script`, :meth:`has_pins`) and the data pack (:meth:`data_dir`,
  :meth:`load_yaml`, :attr:`defaults`, :meth:`with_rules`, :meth:`resolve_files`,
  :meth:`inline_files`);
* turn order: :meth:`initiative` and :meth:`actions` (required), :meth:`legal_actions`,
  :meth:`round_choices`, :meth:`reactions`, :meth:`is_active`, :meth:`is_player`,
  :meth:`start_fight`, :meth:`start_turn`, :meth:`end_round`;
* presentation and words: :attr:`words`, :meth:`health`, :meth:`glance`,
  :meth:`harm_by_hand`, ``dice_order``, ``demo_examples``, :meth:`examples_dir`,
  :meth:`parse_roll`;
* policy hints (speed, never rules): :meth:`first_reaction`, :meth:`ranking_state`,
  :meth:`bystander_state`, :meth:`set_aside`, ``health_caps_damage``, :meth:`out_at`,
  :meth:`round_representative`.

Table defaults (values the seed leaves open) live in ``data/defaults.yaml``,
validated by ``defaults_model``; a scenario's ``rules:`` mapping overrides them
(:meth:`with_rules`).
"""

from __future__ import annotations

import copy
import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ValidationError

from fracas.core.events import Event
from fracas.core.legal import LegalActions
from fracas.core.model import Action, Combatant, Resolution, Roster, Slot
from fracas.dice.rollers import Roller
from fracas.errors import InputError


class NoOptions(BaseModel, frozen=True, extra="forbid"):
    """Options model of an action that takes none."""


@dataclass(frozen=True)
class CommandServices:
    """What the command line lends a system's own commands (see ``RuleSystem.commands``):
    its ``--json`` printer (``print_json(kind, data)``, in the envelope every output
    shares) and its scenario loader (which knows every registered system)."""

    print_json: Callable[[str, Any], None]
    load_scenario: Callable[[Path | str], Any]


class RuleSystem(ABC):
    """Base class of every rule system (the module docstring groups its members;
    docs/adding-a-system.md gives each one's purpose)."""

    id: ClassVar[str]
    title: ClassVar[str]
    seed: ClassVar[str]  # the seed file the rules come from
    summary: ClassVar[str] = ""
    sheet_model: ClassVar[type[BaseModel]]
    options_model: ClassVar[type[BaseModel]] = NoOptions
    defaults_model: ClassVar[type[BaseModel] | None] = None
    outcomes: ClassVar[tuple[str, ...]]  # every outcome name resolve() may give
    scenario_keys: ClassVar[frozenset[str]] = frozenset()  # extra top-level scenario keys
    dice_order: ClassVar[str] = "the dice in the order the rules roll them"
    demo_examples: ClassVar[tuple[str, ...]] = ()  # files of examples_dir() that `demo` shows
    # The module of the system's own commands (``fracas <id> ...``), or None: it defines
    # ``build_app(services: CommandServices) -> typer.Typer``; the command line calls it with
    # its services and mounts the app (the system never imports ``fracas.cli``).
    commands: ClassVar[str | None] = None

    @classmethod
    def resolve_files(cls, rules: Mapping[str, Any], folder: Path | None) -> dict[str, Any]:
        """``rules`` with any file they name resolved against the scenario's ``folder``
        (InputError for a file outside it, or for any file with no folder: a scenario sent
        to the server); the default names no files."""
        return dict(rules)

    @classmethod
    def inline_files(cls, rules: Mapping[str, Any], folder: Path) -> dict[str, Any]:
        """``rules`` with any file they name (in ``folder``) replaced by its content, so that
        the scenario stands alone (the server stores it so); the default names no files."""
        return dict(rules)

    def __init__(self, rules: Mapping[str, Any] | None = None):
        self._overrides: dict[str, Any] = dict(rules or {})
        self.defaults  # validate now, so a bad override fails at load time  # noqa: B018

    # -- data pack ------------------------------------------------------------------
    @classmethod
    def data_dir(cls) -> Path:
        """The folder of this system's data pack (``systems/<id>/data``)."""
        import importlib

        module = importlib.import_module(cls.__module__)
        return Path(module.__file__ or ".").parent / "data"

    @classmethod
    def examples_dir(cls) -> Path:
        """The folder of this system's example scenarios, shipped as package data beside
        its data pack (``<package>/examples``): what ``fracas serve --example``, ``fracas
        demo`` and the web's new-encounter list offer (:mod:`fracas.registry.examples`)."""
        return cls.data_dir().parent / "examples"

    @classmethod
    def load_yaml(cls, name: str) -> Any:
        """A YAML file of the data pack, parsed (errors name the file); parsed once per
        process (every scenario loaded builds its system, and parsing is the slow part),
        each caller getting its own copy."""
        return copy.deepcopy(_data_file(cls.data_dir() / name))

    @cached_property
    def defaults(self) -> Any:
        """The table defaults: ``data/defaults.yaml`` updated by the scenario's ``rules:``."""
        if self.defaults_model is None:
            if self._overrides:
                raise InputError(f"the {self.id} system has no table defaults to override",
                                 path="rules", allowed="no rules: mapping")
            return None
        path = self.data_dir() / "defaults.yaml"
        data = self.load_yaml("defaults.yaml") if path.exists() else {}
        merged = _deep_merge(data or {}, self._overrides)
        try:
            return self.defaults_model.model_validate(merged)
        except ValidationError as err:
            from fracas.core.scenario import validation_error

            raise validation_error(err, file=None, prefix="rules",
                                   model=self.defaults_model) from None

    @cached_property
    def words(self) -> Any:
        """The words a table reads (``data/words.yaml``, see :mod:`fracas.core.words`)."""
        from fracas.core.words import load_words

        path = self.data_dir() / "words.yaml"
        return load_words(path, self.load_yaml("words.yaml") if path.exists() else None)

    def with_rules(self, rules: Mapping[str, Any] | None) -> Self:
        """The same system with some table defaults overridden."""
        return type(self)(rules)

    # -- combatants and actions -----------------------------------------------------
    def build_combatant(self, cid: str, name: str, side: str, sheet: Mapping[str, Any],
                        policy: str | None = None) -> Combatant:
        """A combatant from its sheet fields (validated by ``sheet_model``)."""
        model = self.sheet_model.model_validate(dict(sheet))
        self.check_sheet(model)
        self._check_names(model)
        return Combatant(cid, name, side, model, self.initial_state(model), policy)

    def check_sheet(self, sheet: Any) -> None:
        """Hook: cross-field checks a pydantic model cannot express (raise InputError)."""

    def known_names(self, sheet: Any) -> Mapping[str, Collection[str]]:
        """Hook: for a sheet field holding names (``skills``, ``attributes``), the names
        the rules read; any other name there is an error with the nearest allowed one.
        Default: none (open lists)."""
        return {}

    def _check_names(self, sheet: Any) -> None:
        from fracas.core.unknown import unknown_message

        for field, known in self.known_names(sheet).items():
            value = getattr(sheet, field)
            names = value.keys() if isinstance(value, Mapping) else [k for k, _ in value]
            allowed = sorted(known)
            for name in names:
                if name not in known:
                    raise InputError(unknown_message(field.rstrip("s"), name, allowed),
                                     path=f"{field}.{name}", allowed=", ".join(allowed))

    @abstractmethod
    def initial_state(self, sheet: Any) -> Any:
        """The changing values (a frozen dataclass) of a fresh combatant with this sheet."""

    def parse_action(self, roster: Roster, attacker: str, defender: str | None,
                     weapon: str | None, options: Mapping[str, Any], kind: str = "attack"
                     ) -> Action:
        """An action from a scenario's ``attack:`` entry (options validated)."""
        for role, cid in (("attacker", attacker), ("defender", defender)):
            if cid is not None and cid not in roster:
                raise InputError(f"no combatant with id {cid!r}", path=f"attack.{role}",
                                 allowed=", ".join(roster))
        try:
            opts = self.options_model.model_validate(dict(options))
        except ValidationError as err:
            from fracas.core.scenario import validation_error

            raise validation_error(err, file=None, prefix="attack.options",
                                   model=self.options_model) from None
        action = Action(actor=attacker, target=defender, weapon=weapon, kind=kind, options=opts)
        self.check_action(action, roster)
        return action

    def check_action(self, action: Action, roster: Roster) -> None:
        """Hook: is the action legal for these combatants? (raise InputError naming the field)"""

    @abstractmethod
    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        """Resolve one action, step by step, asking ``roller`` for every random value."""

    def script(self, scenario: Mapping[str, Any]
               ) -> Sequence[object] | Mapping[str, Sequence[object]]:
        """Hook: the scripted roller's values from a scenario's pins (default: ``dice``)."""
        return list(scenario.get("dice") or [])

    def has_pins(self, scenario: Mapping[str, Any]) -> bool:
        return bool(scenario.get("dice"))

    # -- fights -----------------------------------------------------------------------
    @abstractmethod
    def initiative(self, roller: Roller, roster: Roster, round_number: int) -> tuple[
            tuple[Slot, ...], tuple[Event, ...]]:
        """The turn order of a round (slots in order) and the events that set it."""

    @abstractmethod
    def actions(self, actor: str, roster: Roster, slot: Slot | None = None) -> list[Action]:
        """The actions ``actor`` may take now (every target, weapon and option a policy
        may choose from); attacks first. Empty when it can do nothing. An action of kind
        :data:`~fracas.core.model.DELAY` (where the system allows it) is not resolved: the
        fight loop moves the actor's slot after the next one."""

    def legal_actions(self, actor: str, roster: Roster, slot: Slot | None = None
                      ) -> LegalActions:
        """Hook: :meth:`actions`, listed lazily (each candidate checked only when a policy
        looks at it). Default: the list :meth:`actions` gives. A system whose legality
        checks cost much gives its candidates and its check here, and lists :meth:`actions`
        from them, so both are the same rule."""
        return LegalActions(self.actions(actor, roster, slot))

    def round_choices(self, actor: str, roster: Roster, round_number: int) -> list[Action]:
        """Hook: what ``actor`` chooses as round ``round_number`` begins, before initiative
        is taken (Zamani: the sacrifice at the start of a Turn, a focus used for speed, a
        surprise attack that opens the combat). The fight loop asks each active combatant
        in roster order; its policy (or a person) picks one, resolved like any action; the
        first is the default. Default: no choices."""
        return []

    def reactions(self, action: Action, roster: Roster) -> list[Action]:
        """Hook: the variants of ``action`` for each reaction its target may choose
        (dodge, block, parry, sponge, ...), for the defender's policy to pick from.
        Default: the action as it is."""
        return [action]

    def first_reaction(self, action: Action, roster: Roster) -> Action:
        """Hook: the action as a defender that always takes the first of
        :meth:`reactions` meets it (the action itself when it has one variant), for the
        lean fight loop. Default: from :meth:`reactions`; a system whose first variant is
        always the action itself, and whose variants cost much to list, returns it here."""
        variants = self.reactions(action, roster)
        return variants[0] if len(variants) > 1 else action

    def is_player(self, combatant: Combatant) -> bool:
        """Hook: is this a player's character by its sheet (``player: true``)? The GM's
        side is everybody else: ``gm init`` rolls for them only."""
        return getattr(combatant.sheet, "player", False) is True

    def is_active(self, combatant: Combatant) -> bool:
        """Hook: can this combatant still act? (default: health above 0)"""
        current, _ = self.health(combatant)
        return current > 0

    def health(self, combatant: Combatant) -> tuple[int, int]:
        """Hook: (current, maximum) of the value a health bar shows."""
        state = combatant.state
        for name in ("health", "hp", "wounds_left"):
            if hasattr(state, name):
                return int(getattr(state, name)), int(getattr(state, "max_" + name,
                                                              getattr(state, name)))
        raise NotImplementedError(f"{self.id} must implement health()")

    def glance(self, combatant: Combatant, names: Mapping[str, str] | None = None
               ) -> list[str]:
        """What this system's GM glances for beside the combatant's health in the status
        (armour HP, guard, focus, cards left...): by default the data pack's ``glance:``
        list (:class:`fracas.core.words.Glance`) read from the combatant's state, other
        combatants by their ``names`` (by id)."""
        words: Any = self.words
        return list(words.glanced(combatant.state_dict(), names))

    def ranking_state(self, combatant: Combatant, health: bool = False) -> Any:
        """Hook: the state in which the ``cautious`` and ``best-odds`` policies rank a
        combatant's options: its state with what does not change their ranking set aside
        (what no attack reads, such as an initiative place; a deck whole), and, unless
        ``health``, health as at full, so the same matchup ranks once and the ranking is
        reused across states and fights. The policies keep the real health (``health``)
        once an attack could take its target out (see :meth:`out_at`), and break a tie on
        the odds with the real health kept. Default: the state itself (every ranking
        exact)."""
        return combatant.state

    def bystander_state(self, combatant: Combatant, parties: Collection[str]) -> Any:
        """Hook: the state in which the ``cautious`` and ``best-odds`` policies rank options
        for a combatant that is none of ``parties`` (the options' actor and targets): what
        an attack may read of a bystander kept, the rest set aside, so that a ranking is
        found again whatever the bystanders are doing. Default: its ranking state."""
        return self.ranking_state(combatant)

    def set_aside(self, combatant: Combatant, **fields: Any) -> Any:
        """The combatant's state as its sheet starts it, with these fields set: a
        bystander state set aside (made once per sheet and fields)."""
        sheet = combatant.sheet
        key = (sheet, tuple(sorted(fields.items())))
        found = self._aside.get(key)
        if found is None:
            found = self._aside[key] = dataclasses.replace(self.initial_state(sheet),
                                                           **fields)
        return found

    @cached_property
    def _aside(self) -> dict[tuple[Any, Any], Any]:
        return {}

    #: Whether the health a target has left can change an attack's expected damage (the
    #: damage it loses stops at what it has): if not, the policies rank with health set
    #: aside even when an attack could take the target out (a tie is still broken on the
    #: real state, where the take-out chance weighs).
    health_caps_damage: ClassVar[bool] = True

    def out_at(self, combatant: Combatant) -> int:
        """Hook: the health (as :meth:`health` counts it) at or below which a combatant is
        taken out; the policies rank on the real state once one attack's most damage could
        bring the target there. Default: 0."""
        return 0
    def harm_by_hand(self, combatant: Combatant, amount: int) -> tuple[str, Any, Any]:
        """Hook: the state field a GM's damage (``amount`` > 0) or healing (< 0) given by
        hand changes, with its value before and after (no soak, armour or other rule: the
        GM says what is lost; healing stops at the maximum). Default: the health bar's
        own field, counting down."""
        state = combatant.state
        _, maximum = self.health(combatant)
        for name in ("health", "hp", "wounds_left", "wounds"):
            if hasattr(state, name):
                return name, getattr(state, name), counted_down(getattr(state, name),
                                                                amount, maximum)
        raise NotImplementedError(f"{self.id} must implement harm_by_hand()")

    def start_turn(self, roller: Roller, actor: str, roster: Roster) -> tuple[Event, ...]:
        """Hook: effects that end or happen as ``actor``'s turn begins (default none).

        A turn spans all of the actor's slots in a round: the fight loop calls this at the
        first of them only, so "until its next turn" effects last through the others."""
        return ()

    def end_round(self, roller: Roller, roster: Roster, round_number: int) -> tuple[Event, ...]:
        """Hook: effects at the end of a round (default none)."""
        return ()

    def round_representative(self, round_number: int) -> int:
        """Hook: the smallest round number the hooks treat exactly like ``round_number``
        (e.g. 1 if no hook reads the round). The exact fight chain keeps only this in its
        states, counting real rounds apart, so a long fight does not multiply its states.
        Default: the round itself (always correct, never merged)."""
        return round_number

    def start_fight(self, roller: Roller, roster: Roster) -> tuple[Event, ...]:
        """Hook: what happens once before the first round (default none)."""
        return ()

    # -- the roll command ---------------------------------------------------------------
    def parse_roll(self, expression: str) -> Any | None:
        """Hook: a system's own roll notation for ``fracas roll`` (e.g. Genesys pools).

        Return None when the expression is not this system's notation, else an object
        with ``odds_json() -> dict`` and ``sample_json(roller) -> dict``.
        """
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleSystem) and type(self) is type(other) and (
            self._overrides == other._overrides)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its cached hash: hashes of strings and classes differ from
        process to process, so a worker hashes afresh and finds the memos it was given
        under the same system loaded there (issue 39)."""
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    def __hash__(self) -> int:
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((type(self), repr(sorted(self._overrides.items()))))
            self.__dict__["_hash"] = cached
        return cached


def counted_down(before: int, amount: int, maximum: int) -> int:
    """A value that counts down as harm is taken (health): ``amount`` of damage (> 0) or
    healing (< 0), healing stopping at ``maximum`` (never lowering the value)."""
    if amount >= 0:
        return before - amount
    return max(before, min(maximum, before - amount))


def _deep_merge(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(dict(base))
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


@cache
def _data_file(path: Path) -> Any:
    from fracas.core.scenario import read_yaml

    return read_yaml(path)
