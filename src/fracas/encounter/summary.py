"""The end of a fight in a few lines: who won, after how many rounds, what each combatant
dealt and took, and who went down when; a pure function of the fight's events (the same
for the web tracker's screens and ``fracas play``).

Damage is counted in the value the system's health bar shows (:meth:`RuleSystem.health`):
what a combatant *took* is every fall of it, whatever the cause (a hit, a bleed, the
GM's hand); what a combatant *dealt* is every fall of another combatant's during the
turn it is taking (a counter attack's damage to the one acting counts for nobody).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fracas.core.events import Event, FightEnded, RoundStarted, TurnStarted
from fracas.core.scenario import Scenario
from fracas.core.system import RuleSystem
from fracas.encounter.edits import apply_live
from fracas.encounter.state import FightState


@dataclass(frozen=True)
class CombatantSummary:
    """One combatant's fight: damage dealt and taken, and when it went down (the round
    and whose turn it was; None: still standing)."""

    id: str
    name: str
    side: str
    dealt: int = 0
    taken: int = 0
    down_round: int | None = None
    down_in_turn_of: str | None = None  # the id of the one whose turn it was
    dealt_to: tuple[tuple[str, int], ...] = ()  # (id, damage) of each one it hurt

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "side": self.side, "dealt": self.dealt,
                "taken": self.taken, "down_round": self.down_round,
                "down_in_turn_of": self.down_in_turn_of,
                "dealt_to": [list(pair) for pair in self.dealt_to]}


@dataclass(frozen=True)
class FightSummary:
    """The fight as a whole: over or not, the winning side (None: nobody), why it ended,
    how many rounds were fought, and each combatant (in roster order)."""

    over: bool
    winner: str | None
    reason: str
    rounds: int
    combatants: tuple[CombatantSummary, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {"over": self.over, "winner": self.winner, "reason": self.reason,
                "rounds": self.rounds, "combatants": [c.to_dict() for c in self.combatants]}

    def headline(self) -> str:
        """``heroes win after 3 rounds`` (or ``No side wins after 30 rounds (the round
        limit)``: the reason is told where no side won)."""
        rounds = f"{self.rounds} round{'s' if self.rounds != 1 else ''}"
        if self.winner:
            return f"{self.winner} win after {rounds}"
        return f"No side wins after {rounds}" + (f" ({self.reason})" if self.reason else "")

    def lines(self) -> list[str]:
        """The summary as plain lines, for a terminal or a note."""
        out = [self.headline()]
        names = {c.id: c.name for c in self.combatants}
        for c in self.combatants:
            turn = names.get(c.down_in_turn_of or "", c.down_in_turn_of)
            down = (f"down in round {c.down_round}" + (f", {turn}'s turn" if turn else "")
                    if c.down_round is not None else "standing")
            out.append(f"{c.name} ({c.side}): dealt {c.dealt}, took {c.taken}; {down}")
        return out


def summarize(scenario: Scenario, system: RuleSystem, events: Sequence[Event]
              ) -> FightSummary:
    """The summary of the fight whose events (from the start) are ``events``."""
    state = FightState(scenario.roster)
    dealt: dict[str, dict[str, int]] = {}
    taken: dict[str, int] = {}
    down: dict[str, tuple[int, str | None]] = {}
    names = {cid: c.name for cid, c in scenario.roster.items()}
    sides = {cid: c.side for cid, c in scenario.roster.items()}
    actor: str | None = None
    ended: FightEnded | None = None
    for event in events:
        before = state.roster
        state = apply_live(scenario, state, event)
        if isinstance(event, TurnStarted):
            actor = event.actor
        elif isinstance(event, RoundStarted):
            actor = None
        elif isinstance(event, FightEnded):
            ended = event
        if state.roster is before:
            continue
        for cid, c in state.roster.items():
            names.setdefault(cid, c.name)
            sides.setdefault(cid, c.side)
            old = before.get(cid)
            if old is None or old is c:
                continue
            fall = system.health(old)[0] - system.health(c)[0]
            if fall > 0:
                taken[cid] = taken.get(cid, 0) + fall
                if actor is not None and actor != cid:
                    to = dealt.setdefault(actor, {})
                    to[cid] = to.get(cid, 0) + fall
            if system.is_active(old) and not system.is_active(c):
                down[cid] = (state.round, actor)
            elif not system.is_active(old) and system.is_active(c):
                down.pop(cid, None)  # back on their feet
    combatants = tuple(
        CombatantSummary(cid, names[cid], sides[cid], sum(dealt.get(cid, {}).values()),
                         taken.get(cid, 0), down[cid][0] if cid in down else None,
                         down[cid][1] if cid in down else None,
                         tuple(dealt.get(cid, {}).items()))
        for cid in names)
    rounds = ended.rounds if ended is not None else state.round
    return FightSummary(state.over, state.winner, ended.reason if ended else "", rounds,
                        combatants)
