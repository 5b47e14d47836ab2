"""Step 3, the attack contest: up to three rolls of check against check.

Each roll is a sub-step (:func:`contest_roll`) and the rest of the contest from a
given state another (:func:`contest_from`); rule code calls both through
``roller.resolve`` so that the exact roller computes each once per distinct state
and branches over small summaries (who won the roll, threats, confirmations,
critical failures) instead of over every die.

The numbers behind a summary (naturals, totals) ride along in fields that take no
part in equality (``compare=False``): under the random and scripted rollers they
are the dice rolled and feed the explanation; under the exact roller outcomes with
equal summaries merge, so their numbers are one representative path's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from fracas.dice import Group, Keep, Mapped, Roller, Variable, boons_banes, d
from fracas.dice.reading import Reading
from fracas.dice.rollers import Part, announce, listens
from fracas.frozen import HashOnce
from fracas.frozen import cached_hash as _cached_hash
from fracas.systems.contest.events import check_dice

CRIT_ORDER = {"": 0, "threat": 1, "confirmed": 2}


def cached_hash(obj: object) -> int:
    """The hash of a frozen dataclass's compare fields, computed once: these objects are
    outcome keys the exact roller looks up many times."""
    return _cached_hash(obj, lambda: hash(tuple(
        getattr(obj, name) for name in _compared(type(obj)))))


_COMPARED: dict[type, tuple[str, ...]] = {}


def _compared(cls: type) -> tuple[str, ...]:
    """The names of a dataclass's fields that take part in equality (found once)."""
    names = _COMPARED.get(cls)
    if names is None:
        names = _COMPARED[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.compare)
    return names
FUMBLE_ORDER = {"": 0, "fumble": 1, "disarmed": 2}


@dataclass(frozen=True)
class Check:
    """One side's check: d20 (with net boons/banes) + skill rank + attribute modifier."""

    who: str
    label: str
    rank: int
    rank_label: str
    attribute: str
    modifier: int
    net: int
    die: int

    @property
    def bonus(self) -> int:
        return self.rank + self.modifier

    def variable(self) -> Keep:
        return boons_banes(self.net, self.die)

    def named_variable(self) -> Variable[int]:
        """The check's dice named in a table's words (``2d20 with a boon, keep the
        higher``), as a dice prompt shows them: the same values as :meth:`variable`."""
        return Mapped(self.variable(), _same, check_dice(self.net, self.die))

    def parts(self) -> tuple[tuple[str, int], ...]:
        out: tuple[tuple[str, int], ...] = ((self.rank_label, self.rank),)
        if self.attribute:
            out += ((self.attribute, self.modifier),)
        return out


@dataclass(frozen=True)
class ContestRules:
    """The table values the contest reads (from data/defaults.yaml)."""

    threat: int
    fumble: int
    ties_to_defender: bool
    weapon_difficulty: int
    rolls: int
    wins_needed: int
    threat_counts: int
    threat_ends: bool
    counter_all: bool


@dataclass(frozen=True)
class ContestSetup:
    """Everything a contest depends on: both checks, the defense, the weapon rolls."""

    attack: Check
    defense: Check
    kind: str  # dodge | block | sponge | counter
    attack_weapon_roll: Check
    defense_weapon_roll: Check | None  # a counter-attacker's weapon roll
    rules: ContestRules

    def __hash__(self) -> int:
        return cached_hash(self)

    __getstate__ = HashOnce.__getstate__

    @property
    def counter(self) -> bool:
        return self.kind == "counter"


@dataclass(frozen=True)
class RollDice:
    """The numbers of one roll (naturals and totals; None where not rolled)."""

    a_natural: int
    a_total: int
    d_natural: int
    d_total: int
    a_confirm: tuple[int, int] | None = None
    d_confirm: tuple[int, int] | None = None
    a_weapon: tuple[int, int] | None = None
    d_weapon: tuple[int, int] | None = None


@dataclass(frozen=True)
class RollOutcome:
    """One roll's summary: who won it, threats and their confirmation, critical failures."""

    winner: str  # "attacker" | "defender"
    a_crit: str  # "" | "threat" | "confirmed"
    a_fumble: str  # "" | "fumble" (weapon kept, or no weapon roll) | "disarmed"
    d_crit: str
    d_fumble: str
    dice: RollDice = field(compare=False)

    def __hash__(self) -> int:
        return cached_hash(self)

    __getstate__ = HashOnce.__getstate__


@dataclass(frozen=True)
class ContestState:
    """Where a contest stands after some rolls (hashable: the memo key of the rest)."""

    rolls: int = 0
    a_wins: int = 0
    d_wins: int = 0
    a_crit: str = ""
    d_crit: str = ""
    a_fumble: str = ""
    d_fumble: str = ""
    outright: bool = False


@dataclass(frozen=True)
class ContestResult:
    """A finished contest: the winner ("attacker", "defender", "" for a deadlock), the best
    threat and worst critical failure of each side; the rolls themselves ride along."""

    winner: str
    a_crit: str
    d_crit: str
    a_fumble: str
    d_fumble: str
    a_wins: int = field(default=0, compare=False)
    d_wins: int = field(default=0, compare=False)
    reason: str = field(default="", compare=False)
    rolls: tuple[RollOutcome, ...] = field(default=(), compare=False)

    def __hash__(self) -> int:
        return cached_hash(self)

    __getstate__ = HashOnce.__getstate__


def _same(value: int) -> int:
    return value


def _beats(total: int, other: int, by_defender: bool, ties_to_defender: bool) -> bool:
    """Does ``total`` win against ``other``? Ties go to the defender (table default)."""
    if total != other:
        return total > other
    return by_defender == ties_to_defender


@lru_cache(maxsize=1024)
def pair_variable(s: ContestSetup) -> Variable[Reading]:
    """Both checks of a roll, attacker's dice first: who wins the roll, each natural's
    class (threat, critical failure), and the opponent total a threat must beat."""
    r, a, dd = s.rules, s.attack, s.defense

    def meaning(nats: tuple[int, int]) -> Reading:
        a_nat, d_nat = nats
        at, dt = a_nat + a.bonus, d_nat + dd.bonus
        winner = "defender" if _beats(dt, at, True, r.ties_to_defender) else "attacker"
        a_cls = "threat" if a_nat >= r.threat else "fumble" if a_nat <= r.fumble else ""
        d_cls = "threat" if d_nat >= r.threat else "fumble" if d_nat <= r.fumble else ""
        return Reading((winner, a_cls, d_cls, dt if a_cls == "threat" else None,
                     at if d_cls == "threat" else None), (a_nat, at, d_nat, dt))

    return Mapped(Group((a.named_variable(), dd.named_variable())), meaning)


@lru_cache(maxsize=4096)
def confirm_variable(check: Check, opponent: int, by_defender: bool, ties_to_defender: bool
                     ) -> Variable[Reading]:
    """A confirmation check: does it beat the opponent's total?"""

    def meaning(nat: int) -> Reading:
        total = nat + check.bonus
        return Reading((_beats(total, opponent, by_defender, ties_to_defender),), (nat, total))

    return Mapped(check.named_variable(), meaning)


@lru_cache(maxsize=1024)
def weapon_variable(check: Check, difficulty: int) -> Variable[Reading]:
    """A weapon roll after a critical failure: does it meet the difficulty?"""

    def meaning(nat: int) -> Reading:
        total = nat + check.bonus
        return Reading((total >= difficulty,), (nat, total))

    return Mapped(d(check.die), meaning)


def _shown(seen: Reading) -> tuple[int, int]:
    return seen.face[0], seen.face[1]


def contest_roll(roller: Roller, s: ContestSetup, a_armed: bool, d_armed: bool,
                 told: Callable[[RollDice], None] | None = None) -> RollOutcome:
    """One roll of the contest, dice in the documented order: the attacker's check, the
    defender's check, the attacker's confirmation, the defender's confirmation, the
    attacker's weapon roll, the defender's weapon roll (each only when called for).
    ``told``: called with the pair's dice once they are known, before any more is asked
    (a live table hears the threat before it is asked to confirm it)."""
    r = s.rules
    pair = roller.roll(pair_variable(s))  # announced by the caller, who knows which roll
    winner, a_cls, d_cls = (str(x) for x in pair.meaning[:3])
    a_nat, at, d_nat, dt = pair.face
    dice = RollDice(a_nat, at, d_nat, dt)
    if told is not None:
        told(dice)
    a_crit = d_crit = a_fumble = d_fumble = ""
    if a_cls == "threat":
        announce(roller, "{actor}", "roll to confirm the critical hit",
                 _needs(s.attack, dt, False, r.ties_to_defender, "{target}", s.attack.die),
                 bonus=bonus_words(s.attack))
        seen = roller.roll(confirm_variable(s.attack, dt, False, r.ties_to_defender))
        a_crit = "confirmed" if seen.meaning[0] else "threat"
        dice = dataclasses.replace(dice, a_confirm=_shown(seen))
    if d_cls == "threat":
        announce(roller, "{target}", "roll to confirm the critical",
                 _needs(s.defense, at, True, r.ties_to_defender, "{actor}", s.defense.die),
                 bonus=bonus_words(s.defense))
        seen = roller.roll(confirm_variable(s.defense, at, True, r.ties_to_defender))
        d_crit = "confirmed" if seen.meaning[0] else "threat"
        dice = dataclasses.replace(dice, d_confirm=_shown(seen))
    if a_cls == "fumble":
        a_fumble = "fumble"
        if a_armed:
            announce(roller, "{actor}", "weapon roll after the fumble",
                     _at_least(r.weapon_difficulty - s.attack_weapon_roll.bonus,
                               f"a total of {r.weapon_difficulty}"),
                     bonus=bonus_words(s.attack_weapon_roll))
            seen = roller.roll(weapon_variable(s.attack_weapon_roll, r.weapon_difficulty))
            a_fumble = "fumble" if seen.meaning[0] else "disarmed"
            dice = dataclasses.replace(dice, a_weapon=_shown(seen))
    if d_cls == "fumble":
        d_fumble = "fumble"
        if d_armed and s.defense_weapon_roll is not None:
            announce(roller, "{target}", "weapon roll after the fumble",
                     _at_least(r.weapon_difficulty - s.defense_weapon_roll.bonus,
                               f"a total of {r.weapon_difficulty}"),
                     bonus=bonus_words(s.defense_weapon_roll))
            seen = roller.roll(weapon_variable(s.defense_weapon_roll, r.weapon_difficulty))
            d_fumble = "fumble" if seen.meaning[0] else "disarmed"
            dice = dataclasses.replace(dice, d_weapon=_shown(seen))
    return RollOutcome(winner, a_crit, a_fumble, d_crit, d_fumble, dice)


def _needs(check: Check, opponent: int, by_defender: bool, ties_to_defender: bool,
           whom: str, die: int = 0) -> str:
    """What a check needs on the die to beat the opponent's total (ties as :func:`_beats`
    reads them), ``8 or more (a total over Amanda's 12)``; past the die's highest face
    (``die``), that no roll does."""
    least = opponent + (0 if by_defender == ties_to_defender else 1)
    beat = (f"a total over {whom}'s {opponent}" if least > opponent
            else f"a total of at least {whom}'s {opponent}")
    if die and least - check.bonus > die:
        return f"more than a d{die} can show ({beat})"
    return _at_least(least - check.bonus, beat)


def bonus_words(check: Check) -> str:
    """What a check adds to its die, as a table says it: ``+ 5 (sword 4, strength 1)``."""
    sign = "+" if check.bonus >= 0 else "−"
    terms = ", ".join(f"{label} {amount}" for label, amount in check.parts())
    return f"{sign} {abs(check.bonus)} ({terms})"


def _at_least(natural: int, total: str) -> str:
    """``8 or more (a total of 10)``; ``any roll`` when the lowest face does."""
    return f"any roll ({total})" if natural <= 1 else f"{natural} or more ({total})"


def _worst(order: dict[str, int], a: str, b: str) -> str:
    return a if order[a] >= order[b] else b


def advance(s: ContestSetup, st: ContestState, roll: RollOutcome) -> tuple[ContestState, str]:
    """The state after one roll, and why the contest stops ("" while it goes on)."""
    r = s.rules
    a_wins, d_wins = st.a_wins, st.d_wins
    defender_threat = not s.counter and roll.d_crit != ""
    if defender_threat:
        d_wins += r.threat_counts
    elif roll.winner == "attacker":
        a_wins += 1
    else:
        d_wins += 1
    new = ContestState(
        rolls=st.rolls + 1, a_wins=a_wins, d_wins=d_wins,
        a_crit=_worst(CRIT_ORDER, st.a_crit, roll.a_crit),
        d_crit=_worst(CRIT_ORDER, st.d_crit, roll.d_crit),
        a_fumble=_worst(FUMBLE_ORDER, st.a_fumble, roll.a_fumble),
        d_fumble=_worst(FUMBLE_ORDER, st.d_fumble, roll.d_fumble),
        outright=st.outright or (not s.counter and roll.d_crit == "confirmed"))
    if s.counter and r.counter_all:
        return new, ("every roll is made against a counter attack"
                     if new.rolls >= r.rolls else "")
    if new.outright:
        return new, "a confirmed critical defense wins outright"
    if roll.a_crit and r.threat_ends:
        return new, "the attacker's critical threat ends it"
    if a_wins >= r.wins_needed or d_wins >= r.wins_needed:
        return new, f"{r.wins_needed} won rolls end it"
    if new.rolls >= r.rolls:
        return new, "the last roll is made"
    return new, ""


def winner_of(st: ContestState) -> str:
    if st.outright:
        return "defender"
    if st.a_wins != st.d_wins:
        return "attacker" if st.a_wins > st.d_wins else "defender"
    return ""


def announce_roll(roller: Roller, s: ContestSetup, st: ContestState) -> None:
    """Ask the table for the next roll of the contest as it is made: the attacker's die,
    then the defender's, each by its roller with what they add, the opponent and which
    roll of how many; the defender's with what it needs once the attack is known (ties as
    :func:`_beats` reads them)."""
    if not listens(roller):
        return
    r, a, dd = s.rules, s.attack, s.defense
    k = f"roll {st.rolls + 1} of {r.rolls}"

    def defence_needs(earlier: tuple[object, ...]) -> str:
        natural = earlier[0]
        assert isinstance(natural, int)
        return _needs(dd, natural + a.bonus, True, r.ties_to_defender, a.who, dd.die)

    announce(roller, "gm", f"{a.who}'s {a.label} and {dd.who}'s {dd.label}, {k}", owners=(
        Part("{actor}", f"{a.label} on {dd.who}, {k}", bonus_words(a)),
        Part("{target}", f"{dd.label} against {a.who}, {k}", bonus_words(dd), defence_needs)))


def next_roll(roller: Roller, s: ContestSetup, st: ContestState,
              told: Callable[[RollDice], None] | None = None
              ) -> tuple[RollOutcome, ContestState, str]:
    """The contest's next roll from ``st``: the roll, the state after it, and why the
    contest stops there ("" while it goes on); ``told``: as :func:`contest_roll`'s."""
    announce_roll(roller, s, st)
    roll = roller.resolve(contest_roll, s, st.a_fumble != "disarmed",
                          st.d_fumble != "disarmed", told)
    new, reason = advance(s, st, roll)
    return roll, new, reason


def finished(st: ContestState, reason: str, rolls: tuple[RollOutcome, ...]) -> ContestResult:
    """The contest's result once it stops at ``st``, with its rolls."""
    return ContestResult(winner_of(st), st.a_crit, st.d_crit, st.a_fumble, st.d_fumble,
                         st.a_wins, st.d_wins, reason, rolls)


def contest_from(roller: Roller, s: ContestSetup, st: ContestState) -> ContestResult:
    """The rest of a contest from state ``st``: one roll, then (memoised) the rest."""
    roll, new, reason = next_roll(roller, s, st)
    if reason:
        return finished(new, reason, (roll,))
    rest: ContestResult = roller.resolve(contest_from, s, new)
    return dataclasses.replace(rest, rolls=(roll, *rest.rolls))


def run_contest(roller: Roller, s: ContestSetup) -> ContestResult:
    """The whole contest (a memoised sub-step)."""
    result: ContestResult = roller.resolve(contest_from, s, ContestState())
    return result
