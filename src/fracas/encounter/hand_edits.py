"""The GM's hand edits of a live session (set a value, bring a combatant in or take one
out, end the fight): each checked, then recorded as one GM event through the session's
public :meth:`~fracas.encounter.session.Session.record`, so it replays, undoes and resumes
like everything else. A mixin of :class:`~fracas.encounter.session.Session`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import contextlib

from fracas.core.events import Changed, Event, FightEnded, from_jsonable
from fracas.encounter.answers import kind_of
from fracas.encounter.gm_events import RULE_GM, CombatantAdded, CombatantRemoved
from fracas.encounter.hand import hand_value
from fracas.encounter.narration import Names, state_words
from fracas.encounter.order import MOVE, PLACE, check_place, make_room, resort
from fracas.errors import InputError
from fracas.registry.scenarios import scenario_from_mapping

if TYPE_CHECKING:
    from fracas.core.scenario import Scenario
    from fracas.core.words import Words
    from fracas.encounter.state import FightState


def unchanged(edit: Changed, name: str, words: Words, why: str = "nothing changed",
              allowed: str = "") -> Changed:
    """``edit`` when it changes something; else refused, plainly and in the table's words
    (``Obi: wounds already 0; nothing changed``): an edit that changes nothing is not
    written into the log. ``why`` and ``allowed``: what the table tried and may do, where
    a value alone would not say it (healing someone unhurt)."""
    if edit.before != edit.after:
        return edit
    shown = state_words(edit.field, edit.after, words, Names({edit.target: name}))
    raise InputError(f"{name}: {words.field(edit.field)} already {shown}; {why}",
                     allowed=allowed or f"a value other than {shown}")


class HandEdits:
    """The hand edits a GM makes at the table, for the session that mixes them in."""

    if TYPE_CHECKING:
        state: FightState
        scenario: Scenario
        pending: Any

        def record(self, event: Event, group: int | None = None) -> Event: ...

        @property
        def turn_base(self) -> FightState: ...

        @property
        def system(self) -> Any: ...

        def one_step(self) -> contextlib.AbstractContextManager[int]: ...

    def adjust(self, combatant: str, field: str, value: Any) -> Event:
        """Set a state value by hand (health, armour HP, strain, a condition, a deck)."""
        if combatant not in self.state.roster:
            raise InputError(f"no combatant with id {combatant!r}", path="combatant",
                             allowed=", ".join(self.state.roster))
        c = self.state.roster[combatant]
        names = [f.name for f in fields(c.state)]
        if field not in names and field.startswith("initiative"):
            raise InputError(f"{c.name}'s initiative is not a value the fight keeps: the "
                             "rules work the order out again each round", path="field",
                             allowed=MOVE)
        if field not in names:
            raise InputError(f"{combatant} has no value {field!r}", path="field",
                             allowed=", ".join(names))
        before = getattr(c.state, field)
        after = hand_value(type(c.state), field, value)
        edit = unchanged(Changed(RULE_GM, combatant, field, before, after), c.name,
                         self.system.words)
        if not field.startswith("initiative"):
            return self.record(edit)
        # an initiative set by hand takes effect now (this round's order re-sorted) or is
        # refused with the reason (fracas.encounter.order)
        come = check_place(self, field)
        if field == PLACE and not (isinstance(after, int) and after >= 1):
            # 0 is the rules' mark of a place not rolled yet: set by hand it would roll
            # the whole order again
            raise InputError(f"{c.name}'s initiative place cannot be {after}: 1 acts first",
                             path="value", allowed="a whole number from 1 up")
        moved = make_room(self.turn_base.roster, edit)
        with self.one_step() as group:
            for event in (edit, *moved):
                self.record(event, group)
            resort(self, come, group, [edit, *moved])
        return edit

    def add_combatant(self, entry: Mapping[str, Any]) -> Event:
        """Bring in a combatant given as a scenario entry (id, name, side, sheet)."""
        if not isinstance(entry, Mapping):
            raise InputError(f"a combatant entry is a mapping, not {kind_of(entry)}",
                             path="entry", allowed='{"id": ..., "name": ..., "side": ..., '
                             "and the sheet's fields}")
        cid = str(entry.get("id", ""))
        if cid in self.state.roster:
            raise InputError(f"the id {cid!r} is already in the fight", path="id",
                             allowed="a new id")
        self.check_entry(entry)
        return self.record(CombatantAdded(RULE_GM, from_jsonable(dict(entry))))

    def check_entry(self, entry: Mapping[str, Any]) -> None:
        """Check a combatant entry by the system's model (errors name the field)."""
        raw = dict(self.scenario.raw)
        raw["combatants"] = [dict(entry)]
        raw.pop("attack", None)
        raw.pop("dice", None)
        try:
            scenario_from_mapping(raw)
        except InputError as err:
            # the entry typed is alone, not the first of a scenario's combatants
            if not (err.path or "").startswith("combatants[0]"):
                raise
            raise InputError(err.message, file=err.file, allowed=err.allowed,
                             path="entry" + (err.path or "").removeprefix("combatants[0]")
                             ) from None

    def remove_combatant(self, cid: str) -> Event:
        """Take a combatant out of the fight."""
        if cid not in self.state.roster:
            raise InputError(f"no combatant with id {cid!r}", path="combatant",
                             allowed=", ".join(self.state.roster))
        return self.record(CombatantRemoved(RULE_GM, cid))

    def end_fight(self, reason: str) -> Event:
        """End the fight now (no winner)."""
        if self.state.over:
            raise InputError("the fight is already over", path="end")
        return self.record(FightEnded(RULE_GM, "", self.state.round,
                                   f"the GM ends the fight: {reason}"))
