"""The events of the GM's tools: what the GM did by hand at the table, as the session's
log keeps it (a combatant brought in or taken out, who decides for a combatant, a free-form
action and its roll, a condition put on or taken off, a place in this round's order).

They are a module of their own because two sides use them and neither owns the other:
:mod:`fracas.encounter.gm` builds them from what the GM asks for (checked against the
rules), and :class:`fracas.encounter.session.Session` (with :mod:`fracas.encounter.edits`)
records and applies them, in the fight and when a log is read back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from fracas.core.events import Event, SlotAdded
from fracas.encounter.live import PERSON

RULE_GM = "GM · at the table"
#: who rolls a combatant's dice: typed at the table, or rolled by fracas
TYPED, FRACAS = "typed", "fracas"
ROLLERS = (FRACAS, TYPED)


@dataclass(frozen=True)
class CombatantAdded(Event):
    """The GM brings a combatant into the fight (its scenario entry); it joins the turn
    order from the next round."""

    facts: ClassVar[str] = "public"

    entry: Any

    def text(self) -> str:
        entry = dict(self.entry)
        return f"{entry.get('name') or entry.get('id')} joins the fight ({entry.get('side')})"


@dataclass(frozen=True)
class CombatantRemoved(Event):
    """The GM takes a combatant out of the fight; its places in the turn order pass."""

    facts: ClassVar[str] = "public"

    combatant: str

    def text(self) -> str:
        return f"{self.combatant} leaves the fight"


@dataclass(frozen=True)
class ControllerSet(Event):
    """Who decides for a combatant from now on: a person (the GM or its player) or a
    named policy."""

    facts: ClassVar[str] = "public"

    combatant: str
    name: str
    controller: str

    def text(self) -> str:
        if self.controller == PERSON:
            return f"{self.name} is decided by hand again"
        return f"fracas decides for {self.name} from now on ({self.controller})"


@dataclass(frozen=True)
class DiceSet(Event):
    """Who rolls a combatant's dice from now on: ``typed`` (a person types or taps them:
    its player, or the GM) or ``fracas`` (fracas rolls them and says what it rolled);
    ``combatant`` empty: every combatant of the GM's side (the encounter's setting)."""

    facts: ClassVar[str] = "public"

    combatant: str
    name: str
    roller: str

    def text(self) -> str:
        whose = f"{self.name}'s dice" if self.combatant else "the GM side's dice"
        if self.roller == TYPED:
            return f"{whose} are typed at the table from now on"
        return f"fracas rolls {whose} from now on"


@dataclass(frozen=True)
class GmAction(Event):
    """A free-form action the GM describes (the combatant's turn passes with it)."""

    facts: ClassVar[str] = "public"

    actor: str
    name: str
    description: str

    def text(self) -> str:
        return f"{self.name}: {self.description}"


@dataclass(frozen=True)
class GmRoll(Event):
    """A roll the GM calls for by hand, against a target number if one is given."""

    facts: ClassVar[str] = "public"

    who: str
    dice: str
    value: int
    target: int | None
    needs: str  # "at least" or "at most"
    success: bool | None
    hidden: bool = False  # rolled behind the GM's screen: no player sees it

    def fact_kind(self) -> str:
        return "gm" if self.hidden else "public"

    def text(self) -> str:
        screen = " (behind the screen)" if self.hidden else ""
        if self.target is None:
            return f"{self.who} rolls {self.dice}{screen}: {self.value}"
        verdict = "success" if self.success else "failure"
        return f"{self.who} rolls {self.dice}{screen}: {self.value}, needs {self.needs} " \
               f"{self.target}: {verdict}"


@dataclass(frozen=True)
class ConditionSet(Event):
    """A condition the GM puts on a combatant (``round``: the round it is put on in) until
    taken off (``rounds`` 0), or for ``rounds`` rounds: through that many turns of its
    own, so a 1-round condition lasts through its target's next turn; or, with
    ``turns_of``, until the end of that combatant's next turn. When its time is up the
    session ends it (:class:`ConditionEnded`), the rules' condition with it. Put on
    while the turn that counts it is under way and its action already chosen
    (``after_turn``: a reaction in its own attack), that turn is not one of them."""

    facts: ClassVar[str] = "condition"

    combatant: str
    name: str
    condition: str
    rounds: int
    round: int
    turns_of: str = ""  # whose next turn it lasts through (by id; "": its own turns)
    turns_name: str = ""  # that combatant's name
    after_turn: bool = False  # the turn under way, whose action is chosen, does not count

    def turns(self) -> int:
        """How many turns of :meth:`whose_turns` it lasts, counted from where it was set
        (the turn under way among them when ``after_turn``: it is not one of its turns)."""
        return self.rounds + (1 if self.after_turn else 0)

    def whose_turns(self) -> str:
        """Whose turns count its time down."""
        return self.turns_of or self.combatant

    def text(self) -> str:
        if self.turns_of:
            return (f"{self.name} is {self.condition} until the end of "
                    f"{self.turns_name or self.turns_of}'s next turn")
        lasting = (f" for {self.rounds} round{'s' if self.rounds != 1 else ''}"
                   if self.rounds else "")
        return f"{self.name} is {self.condition}{lasting}"


@dataclass(frozen=True)
class ConditionEnded(Event):
    """A GM's condition whose time is up: it ends at the end of the turn that used its
    last round (the rules' condition ends with it, a change of its own)."""

    facts: ClassVar[str] = "condition"

    combatant: str
    name: str
    condition: str

    def text(self) -> str:
        return f"{self.name} is no longer {self.condition}: its time is up"


def rules_condition(system: Any, state: Any, said: str) -> str | None:
    """The rules' name of the condition a GM names (its name or its word, any case), when
    the combatant's ``state`` keeps conditions; None if the rules know no such condition."""
    if not isinstance(getattr(state, "conditions", None), tuple):
        return None
    wanted = said.strip().lower()
    return next((name for name, word in system.words.conditions.items()
                 if wanted in (name.lower(), word.label.lower())), None)


@dataclass(frozen=True)
class ConditionCleared(Event):
    """The GM takes a condition off."""

    facts: ClassVar[str] = "condition"

    combatant: str
    name: str
    condition: str

    def text(self) -> str:
        return f"{self.name} is no longer {self.condition}"


@dataclass(frozen=True)
class Joined(SlotAdded):
    """A combatant brought in mid-round takes a place in this round's order (the others'
    places and initiative stay as they are)."""

    def text(self) -> str:
        return f"{self.label} joins this round's order"


@dataclass(frozen=True)
class Reordered(Event):
    """The GM changes the order of round ``round``'s slots still to come (the current
    one, whose turn is pending, included): ``order`` lists them in their new order by
    their place among those slots (0: the current one). Made as a round begins (its
    first turn pending), it orders that round's slots when they are set. ``said`` tells
    it in names."""

    facts: ClassVar[str] = "public"

    order: tuple[int, ...]
    said: str
    round: int = 0
    who: tuple[str, ...] = ()  # the combatants ``said`` names (a player who may not see
    # one of them does not see the line)
    labels: tuple[str, ...] = ()  # the slots' labels in the new order, where the places
    # they show were renumbered (none: as they were)

    def text(self) -> str:
        return self.said
