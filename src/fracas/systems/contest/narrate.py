"""The contest told roll by roll, the way the seed explains it (events only, no rules
decided here: every decision comes from :mod:`contest`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from fracas.core.events import Event, Note
from fracas.dice import Roller
from fracas.dice.rollers import listens, tell
from fracas.frozen import HashOnce
from fracas.systems.contest.checks import PRONE
from fracas.systems.contest.contest import (
    Check,
    ContestResult,
    ContestSetup,
    ContestState,
    RollDice,
    RollOutcome,
    advance,
    cached_hash,
    finished,
    next_roll,
    run_contest,
)
from fracas.systems.contest.events import (
    CONTEST,
    O_THREAT_ENDS,
    O_WEAPON_ROLL,
    R_CHECK,
    R_CONFIRM,
    R_CONTEST,
    ContestCheck,
    ContestDecided,
    ContestPair,
    Tracker,
)


def dice_text(check: Check) -> str:
    """``d20``, ``2d20kh1`` (a boon), ``3d20kl1`` (two banes)."""
    if check.net == 0:
        return f"d{check.die}"
    return f"{1 + abs(check.net)}d{check.die}{'kh' if check.net > 0 else 'kl'}1"


def _flag(s: ContestSetup, natural: int) -> str:
    if natural >= s.rules.threat:
        return "critical threat"
    if natural <= s.rules.fumble:
        return "critical failure"
    return ""


@dataclass(frozen=True)
class Side:
    """What the narration needs of a combatant (small and hashable)."""

    id: str
    name: str
    conditions: tuple[str, ...]
    dropped: tuple[str, ...]


@dataclass(frozen=True)
class Narrated:
    """A contest's result (the summary) with its events, told once per distinct result."""

    result: ContestResult
    events: tuple[Event, ...] = field(compare=False)

    def __hash__(self) -> int:
        return cached_hash(self)

    __getstate__ = HashOnce.__getstate__


def narrated_contest(roller: Roller, s: ContestSetup, a: Side, t: Side, attack_weapon: str,
                     counter_weapon: str | None) -> Narrated:
    """The contest and its explanation (a memoised sub-step: under the exact roller the
    events are told once per distinct result, not once per path)."""
    narrator = ContestNarrator(s, a, t, attack_weapon, counter_weapon, Tracker())
    if not listens(roller):
        result = run_contest(roller, s)
        return Narrated(result, tuple(narrator.events(result)))
    # a live table hears each roll as it is made: the same rolls in the same order
    # (:func:`next_roll`, as :func:`contest_from` makes them), told one by one
    state, reason = ContestState(), ""
    rolls: list[RollOutcome] = []
    events: list[Event] = []
    while not reason:
        checks = narrator.checks(len(rolls) + 1)
        # the pair's checks are told as soon as both dice are known: a threat or a
        # critical failure is in the log before its confirmation or weapon roll is asked
        roll, state, reason = next_roll(roller, s, state, _telling(roller, checks))
        rolls.append(roll)
        said = narrator.told_roll(len(rolls), roll, state)
        tell(roller, said[len(checks(roll.dice)):])
        events += said
    result = finished(state, reason, tuple(rolls))
    decided = narrator.decided(result)
    tell(roller, decided)
    return Narrated(result, (*events, *decided))


def _telling(roller: Roller, checks: Callable[[RollDice], list[Event]]
             ) -> Callable[[RollDice], None]:
    """Tell the table a roll's two checks once its dice are known."""
    return lambda dice: tell(roller, checks(dice))


class ContestNarrator:
    """Events for each roll of a finished contest, with the state changes it causes."""

    def __init__(self, s: ContestSetup, attacker: Side, defender: Side,
                 attack_weapon: str, counter_weapon: str | None, tracker: Tracker):
        self.s = s
        self.a, self.t = attacker, defender
        self.attack_weapon, self.counter_weapon = attack_weapon, counter_weapon
        self.tracker = tracker

    def events(self, result: ContestResult) -> list[Event]:
        out: list[Event] = []
        state = ContestState()
        for i, roll in enumerate(result.rolls, 1):
            state, _ = advance(self.s, state, roll)
            out += self.told_roll(i, roll, state)
        out += self.decided(result)
        return out

    def checks(self, i: int) -> Callable[[RollDice], list[Event]]:
        """Roll ``i``'s two checks (its first events), from the pair's dice."""
        s, a, t = self.s, self.a.name, self.t.name

        def told(dice: RollDice) -> list[Event]:
            return [
                ContestCheck(R_CHECK, i, a, s.attack.label, dice_text(s.attack),
                             dice.a_natural, s.attack.parts(), dice.a_total,
                             _flag(s, dice.a_natural)),
                ContestCheck(R_CHECK, i, t, s.defense.label, dice_text(s.defense),
                             dice.d_natural, s.defense.parts(), dice.d_total,
                             _flag(s, dice.d_natural))]
        return told

    def told_roll(self, i: int, roll: RollOutcome, state: ContestState) -> list[Event]:
        """Roll ``i``'s events (the contest standing at ``state`` after it)."""
        s, dice = self.s, roll.dice
        a, t = self.a.name, self.t.name
        out: list[Event] = self.checks(i)(dice)
        tie = dice.a_total == dice.d_total
        relation = "=" if tie else (">" if dice.a_total > dice.d_total else "<")
        who = a if roll.winner == "attacker" else t
        text = f"{'a tie goes to the ' + roll.winner + '; ' if tie else ''}roll {i} to {who}"
        score = f"{a} {state.a_wins}, {t} {state.d_wins}"
        threat_counts = not s.counter and roll.d_crit
        out.append(ContestPair(R_CONTEST, a, dice.a_total, relation, t, dice.d_total,
                               text + ("" if threat_counts else f" ({score})")))
        if dice.a_confirm is not None:
            out += self._confirm(i, s.attack, dice.a_confirm, dice.d_total, roll.a_crit, True)
        if dice.d_confirm is not None:
            out += self._confirm(i, s.defense, dice.d_confirm, dice.a_total, roll.d_crit, False)
        if threat_counts:
            out.append(Note(CONTEST, f"{t}'s critical threat on the {s.kind} counts as "
                                     f"{s.rules.threat_counts} won rolls ({score})"))
        out += self._fumbles(i, roll)
        return out

    def _confirm(self, i: int, check: Check, shown: tuple[int, int], other: int, crit: str,
                 attacker: bool) -> list[Event]:
        natural, total = shown
        opponent = self.t.name if attacker else self.a.name
        confirmed = crit == "confirmed"
        if attacker:
            meaning = ("confirmed: a Critical Hit" if self.attack_weapon else "confirmed")
        elif self.s.counter:
            meaning = "confirmed: the counter attack is a Critical Hit"
        else:
            meaning = f"confirmed: {self.t.name} wins the contest outright"
        verdict = (f"beats {opponent}'s {other}, {meaning}" if confirmed
                   else f"does not beat {opponent}'s {other}: not confirmed")
        events: list[Event] = [
            ContestCheck(R_CONFIRM, i, check.who, f"confirming the {check.label} threat",
                         dice_text(check), natural, check.parts(), total, verdict)]
        if attacker or self.s.counter:
            who = check.who
            events.append(Note(CONTEST, f"{who}'s critical threat: {who} deals damage "
                                        "whatever the outcome of the contest"))
        return events

    def _fumbles(self, i: int, roll: RollOutcome) -> list[Event]:
        s, dice, out = self.s, roll.dice, []
        if roll.a_fumble:
            out += self._weapon_roll(i, self.a, s.attack, dice.a_weapon, roll.a_fumble,
                                     self.attack_weapon)
        if roll.d_fumble:
            t = self.t
            if s.kind == "dodge":
                out.append(Note(CONTEST, f"{t.name} critically fails the dodge: knocked prone"))
                out += self.tracker.add(CONTEST, t.id, "conditions", t.conditions, PRONE)
            elif s.kind in ("block", "sponge"):
                out.append(Note(CONTEST, f"{t.name} critically fails the {s.kind}: knocked one "
                                         "cell backwards, if physically possible"))
            else:
                out += self._weapon_roll(i, t, s.defense, dice.d_weapon, roll.d_fumble,
                                         self.counter_weapon or "")
        return out

    def _weapon_roll(self, i: int, c: Side, check: Check, shown: tuple[int, int] | None,
                     fumble: str, weapon: str) -> list[Event]:
        out: list[Event] = []
        if shown is None:
            return [Note(CONTEST, f"{c.name} critically fails again, already disarmed")]
        natural, total = shown
        roll_check = (self.s.attack_weapon_roll if c.id == self.a.id
                      else self.s.defense_weapon_roll)
        assert roll_check is not None
        need = self.s.rules.weapon_difficulty
        verdict = (f"meets {need}: keeps the {weapon}" if fumble == "fumble"
                   else f"misses {need}: disarmed, drops the {weapon}")
        out.append(Note(CONTEST, f"{c.name} critically fails the {check.label}: a weapon roll "
                                 "now, or be disarmed"))
        out.append(ContestCheck(O_WEAPON_ROLL, i, c.name, "weapon roll", dice_text(roll_check),
                                natural, roll_check.parts(), total, verdict))
        if fumble == "disarmed":
            out += self.tracker.add(CONTEST, c.id, "dropped", c.dropped, weapon)
        return out

    def decided(self, result: ContestResult) -> list[Event]:
        winner = {"attacker": self.a.name, "defender": self.t.name}.get(result.winner, "")
        rule = O_THREAT_ENDS if "threat ends" in result.reason else R_CONTEST
        return [ContestDecided(rule, self.a.name, self.t.name, result.a_wins, result.d_wins,
                               winner, len(result.rolls), result.reason)]
