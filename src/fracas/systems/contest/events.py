"""The contest system's own events (one plain line each) and the rules they cite."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from fracas.core.events import Compared, Event

SEED = "seed 001"
DECLARE = f"{SEED} · Step 1. Declare an Attack"
DEFENSE = f"{SEED} · Step 2. Declare a Defense"
CONTEST = f"{SEED} · Step 3. Attack Contest"
SPONGE = f"{SEED} · Sponge Checks"
DAMAGE = f"{SEED} · Step 4. Compute Damage"
HIT_POINTS = f"{SEED} · Hit points"
R_CHECK = "table default · Checks, boons and banes"
R_CONTEST = "table default · Contest rolls"
R_CONFIRM = "table default · Confirming a threat"
R_CALLED = "table default · Called shot"
R_DEFENSIVE = "table default · Fight defensively"
R_INITIATIVE = "table default · Initiative"
R_MELEE = "table default · Melee bonus damage"
O_WEAPON_ROLL = "contest default · Weapon roll"
O_THREAT_ENDS = "contest default · An attacker's threat ends the contest"
O_HALVING = "contest default · Halving rounds"
O_UNTRAINED = "contest default · Untrained skills, missing attributes"
O_CRIT_MELEE = "contest default · No melee bonus on a critical"
O_ACTIONS = "contest default · Standing up, recovering a weapon"
O_COUNTER_BANE = "contest default · fight_defensively.counter_takes_bane"
O_BLOCK_CRIT = "contest default · block.reduces_critical"
O_DISARMED = "contest default · disarm.dropped_weapon_deals_damage"
O_START = "scenario · Starting conditions"


def _terms(parts: tuple[tuple[str, int], ...]) -> str:
    out = ""
    for label, amount in parts:
        sign = "+" if amount >= 0 else "−"
        out += f" {sign} {abs(amount)}" + (f" ({label})" if label else "")
    return out


def _count(n: int, word: str) -> str:
    names = {1: "one", 2: "two", 3: "three", 4: "four"}
    return f"{names.get(n, str(n))} {word}{'s' if n != 1 else ''}"


_NOTATION = re.compile(r"(\d*)d(\d+)(?:k([hl])1)?")


def check_dice(net: int, die: int, told: bool = False) -> str:
    """A check's dice in a table's words: ``d20``; ``2d20 with a boon, keep the higher``;
    ``3d20 with two banes, keep the lowest`` (``told``: ``... (the lowest kept)``, as a
    roll is told after it is made)."""
    if net == 0:
        return f"d{die}"
    count = 1 + abs(net)
    word = "boon" if net > 0 else "bane"
    extra = f"a {word}" if abs(net) == 1 else _count(abs(net), word)
    kept = ("higher" if net > 0 else "lower") if count == 2 else (
        "highest" if net > 0 else "lowest")
    return f"{count}d{die} with {extra}" + (f" (the {kept} kept)" if told
                                            else f", keep the {kept}")


def dice_words(notation: str, told: bool = False) -> str:
    """The words of a check's dice as events keep them (``2d20kh1``, the key a log
    holds): see :func:`check_dice`; other notation is shown as it is."""
    found = _NOTATION.fullmatch(notation)
    if found is None:
        return notation
    count, die, keep = int(found[1] or 1), int(found[2]), found[3]
    if keep is None and count != 1:
        return notation
    net = 0 if count == 1 else (count - 1) * (1 if keep == "h" else -1)
    return check_dice(net, die, told)


@dataclass(frozen=True)
class ContestBoons(Event):
    """A side's boons and banes, by source, netted into the dice it rolls."""

    who: str
    sources: tuple[tuple[str, int], ...]  # (source, +n boons / -n banes)
    net: int
    dice: str  # the notation (``2d20kh1``): a log's key; told in words

    def text(self) -> str:
        shown = ", ".join(
            f"{_count(abs(n), 'boon' if n > 0 else 'bane')} ({src})" for src, n in self.sources)
        rolls = self.dice.partition("k")[0]
        most = "" if abs(self.net) == 1 else "st"
        if self.net > 0:
            net = f"net {_count(self.net, 'boon')}: rolls {rolls}, keeps the highe{most or 'r'}"
        elif self.net < 0:
            net = f"net {_count(-self.net, 'bane')}: rolls {rolls}, keeps the lowe{most or 'r'}"
        else:
            net = "they cancel out: one d20"
        return f"{self.who}: {shown}; {net}"


@dataclass(frozen=True)
class ContestCheck(Event):
    """One check of the contest: the kept natural, plus rank and attribute, = total (said
    aloud at the table: the other side's players hear it)."""

    brief: ClassVar[bool] = True
    facts: ClassVar[str] = "opposed"

    roll: int
    who: str
    check: str
    dice: str  # the notation (``2d20kh1``, ``d20``): a log's key; told in words
    natural: int
    parts: tuple[tuple[str, int], ...]
    total: int
    note: str

    def text(self) -> str:
        tail = f" — {self.note}" if self.note else ""
        return (f"Roll {self.roll} · {self.who}, {self.check}: {dice_words(self.dice, True)} shows "
                f"{self.natural}{_terms(self.parts)} = {self.total}{tail}")

    def public_text(self) -> str:
        """The roll as said aloud to the other side: the die and the total, not the
        roller's ranks and attributes (their sheet)."""
        tail = f" — {self.note}" if self.note else ""
        return (f"Roll {self.roll} · {self.who}, {self.check}: {dice_words(self.dice, True)} shows "
                f"{self.natural}, a total of {self.total}{tail}")


@dataclass(frozen=True)
class ContestDecided(Event):
    """The contest is over: who won, on how many rolls, and why it stopped."""

    facts: ClassVar[str] = "opposed"

    attacker: str
    defender: str
    attacker_wins: int
    defender_wins: int
    winner: str  # the winner's name, or "" for a deadlock
    rolls: int
    reason: str

    def text(self) -> str:
        score = f"{self.attacker} {self.attacker_wins}, {self.defender} {self.defender_wins}"
        who = f"{self.winner} wins" if self.winner else "deadlocked"
        return (f"Attack contest over after {_count(self.rolls, 'roll')} ({self.reason}): "
                f"{who} ({score})")

    def public_text(self) -> str:
        """Said aloud as it is (who won, the score: no sheet value)."""
        return self.text()


@dataclass(frozen=True)
class ContestPair(Compared):
    """One roll of the contest: the two checks' totals compared, who takes the roll and
    the score (said aloud at the table, as the checks are)."""

    facts: ClassVar[str] = "opposed"

    def public_text(self) -> str:
        """Said aloud as it is (the two totals, who takes the roll: no sheet value)."""
        return self.text()


@dataclass(frozen=True)
class ContestDamage(Event):
    """A damage roll: the weapon's dice (times the critical multiplier) plus bonuses."""

    brief: ClassVar[bool] = True

    who: str
    weapon: str
    dice: str
    roll: int
    multiplier: int
    bonuses: tuple[tuple[str, int], ...]
    total: int

    def text(self) -> str:
        crit = f" × {self.multiplier} (critical multiplier)" if self.multiplier > 1 else ""
        return (f"{self.who}'s {self.weapon} damage: {self.dice} shows {self.roll}{crit}"
                f"{_terms(self.bonuses)} = {self.total}")


@dataclass(frozen=True)
class ContestArmour(Event):
    """A won sponge: damage reduction, halving, and what the armour absorbs."""

    who: str
    armour: str
    incoming: int
    dr: int
    halved: int  # damage after halving (-1: no halving)
    absorbed: int
    armour_before: int
    armour_after: int
    through: int

    def text(self) -> str:
        after_dr = self.incoming - min(self.dr, self.incoming)
        steps = f"{self.incoming} − {self.dr} (DR) = {after_dr}" if self.dr else (
            f"{self.incoming} (no DR)")
        if self.halved >= 0:
            steps += f", halved to {self.halved}"
        return (f"{self.who}'s {self.armour}: {steps}; the armour absorbs {self.absorbed} "
                f"({self.armour_before} → {self.armour_after} HP); {self.through} gets "
                f"through to {self.who}")


@dataclass(frozen=True)
class ContestWounded(Event):
    """Damage reaches a combatant's own hit points."""

    who: str
    damage: int
    before: int
    after: int

    def text(self) -> str:
        state = " — dying" if self.after <= 0 < self.before else ""
        return f"{self.who} takes {self.damage} damage: {self.before} → {self.after} HP{state}"


class Tracker:
    """The combatants' state values as a resolution changes them, so that each
    :class:`~fracas.core.events.Changed` event carries the right ``before``."""

    def __init__(self) -> None:
        self._values: dict[tuple[str, str], object] = {}

    def seed(self, events: tuple[Event, ...]) -> None:
        """Take in the changes other events already made."""
        from fracas.core.events import Changed

        for e in events:
            if isinstance(e, Changed):
                self._values[(e.target, e.field)] = e.after

    def get(self, cid: str, name: str, current: object) -> object:
        return self._values.get((cid, name), current)

    def change(self, rule: str, cid: str, name: str, current: object, after: object
               ) -> list[Event]:
        """A Changed event (none when the value stays the same)."""
        from fracas.core.events import Changed

        before = self.get(cid, name, current)
        if before == after:
            return []
        self._values[(cid, name)] = after
        return [Changed(rule, cid, name, before, after)]

    def add(self, rule: str, cid: str, name: str, current: tuple[str, ...], item: str
            ) -> list[Event]:
        """Add ``item`` to a tuple-of-strings field (conditions, dropped weapons)."""
        before = self.get(cid, name, current)
        assert isinstance(before, tuple)
        if item in before:
            return []
        return self.change(rule, cid, name, current, (*before, item))
