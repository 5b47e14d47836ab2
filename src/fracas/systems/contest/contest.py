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
from dataclasses import dataclass, field

from fracas.dice import Keep, Roller, boons_banes, d

CRIT_ORDER = {"": 0, "threat": 1, "confirmed": 2}
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


def _beats(total: int, other: int, by_defender: bool, ties_to_defender: bool) -> bool:
    """Does ``total`` win against ``other``? Ties go to the defender (RULES.md default)."""
    if total != other:
        return total > other
    return by_defender == ties_to_defender


def _weapon_roll(roller: Roller, check: Check, difficulty: int) -> tuple[str, tuple[int, int]]:
    natural = roller.roll(d(check.die))
    total = natural + check.bonus
    return ("fumble" if total >= difficulty else "disarmed"), (natural, total)


def contest_roll(roller: Roller, s: ContestSetup, a_armed: bool, d_armed: bool) -> RollOutcome:
    """One roll of the contest, dice in the documented order: the attacker's check, the
    defender's check, the attacker's confirmation, the defender's confirmation, the
    attacker's weapon roll, the defender's weapon roll (each only when called for)."""
    r = s.rules
    a_nat = roller.roll(s.attack.variable())
    a_total = a_nat + s.attack.bonus
    d_nat = roller.roll(s.defense.variable())
    d_total = d_nat + s.defense.bonus
    winner = "defender" if _beats(d_total, a_total, True, r.ties_to_defender) else "attacker"
    dice = RollDice(a_nat, a_total, d_nat, d_total)
    a_crit = d_crit = a_fumble = d_fumble = ""
    if a_nat >= r.threat:
        nat = roller.roll(s.attack.variable())
        total = nat + s.attack.bonus
        a_crit = "confirmed" if _beats(total, d_total, False, r.ties_to_defender) else "threat"
        dice = dataclasses.replace(dice, a_confirm=(nat, total))
    if d_nat >= r.threat:
        nat = roller.roll(s.defense.variable())
        total = nat + s.defense.bonus
        d_crit = "confirmed" if _beats(total, a_total, True, r.ties_to_defender) else "threat"
        dice = dataclasses.replace(dice, d_confirm=(nat, total))
    if a_nat <= r.fumble:
        a_fumble = "fumble"
        if a_armed:
            a_fumble, shown = _weapon_roll(roller, s.attack_weapon_roll, r.weapon_difficulty)
            dice = dataclasses.replace(dice, a_weapon=shown)
    if d_nat <= r.fumble:
        d_fumble = "fumble"
        if d_armed and s.defense_weapon_roll is not None:
            d_fumble, shown = _weapon_roll(roller, s.defense_weapon_roll, r.weapon_difficulty)
            dice = dataclasses.replace(dice, d_weapon=shown)
    return RollOutcome(winner, a_crit, a_fumble, d_crit, d_fumble, dice)


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


def contest_from(roller: Roller, s: ContestSetup, st: ContestState) -> ContestResult:
    """The rest of a contest from state ``st``: one roll, then (memoised) the rest."""
    roll = roller.resolve(contest_roll, s, st.a_fumble != "disarmed", st.d_fumble != "disarmed")
    new, reason = advance(s, st, roll)
    if reason:
        return ContestResult(winner_of(new), new.a_crit, new.d_crit, new.a_fumble, new.d_fumble,
                             new.a_wins, new.d_wins, reason, (roll,))
    rest: ContestResult = roller.resolve(contest_from, s, new)
    return dataclasses.replace(rest, rolls=(roll, *rest.rolls))


def run_contest(roller: Roller, s: ContestSetup) -> ContestResult:
    """The whole contest (a memoised sub-step)."""
    result: ContestResult = roller.resolve(contest_from, s, ContestState())
    return result
