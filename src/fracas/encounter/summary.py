"""The end of a fight in a few lines: who won, after how many rounds, what each combatant
dealt and took, and who went down when. A pure function of the fight's start and its
events (a fight log's or a live session's), so every screen tells the same summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fracas.core.events import ActionChosen, Event, FightEnded, RoundStarted, TurnStarted
from fracas.core.scenario import Scenario
from fracas.encounter.edits import apply_live
from fracas.encounter.gm import RULE_GM
from fracas.encounter.state import FightState


@dataclass(frozen=True)
class Fighter:
    """One combatant's part: the health others lost to its actions (counter-attacks
    included), the health it lost (by any cause: attacks, bleeding, the GM's hand), and
    the round it went down in (None: still standing)."""

    id: str
    name: str
    side: str
    dealt: int
    taken: int
    down: int | None


@dataclass(frozen=True)
class Summary:
    over: bool
    winner: str | None  # the winning side (None: nobody, or not over)
    reason: str
    rounds: int
    fighters: tuple[Fighter, ...]


def summarize(scenario: Scenario, events: Sequence[Event]) -> Summary:
    """The summary of the fight ``events`` tell, from ``scenario``'s start. Health lost in
    a turn is dealt by the one whose turn it is, or, lost by that one after choosing its
    action (a counter-attack), by its action's target; lost otherwise (the GM's hand,
    bleeding at a round's end) it is taken, dealt by nobody."""
    system = scenario.system
    state = FightState(scenario.roster)
    dealt: dict[str, int] = {}
    taken: dict[str, int] = {}
    down: dict[str, int] = {}
    order = list(scenario.roster)
    reason = ""
    actor: str | None = None
    target: str | None = None  # the target of the acting one's chosen action
    for e in events:
        before = state
        state = apply_live(scenario, state, e)
        order += [cid for cid in state.roster if cid not in order]
        if isinstance(e, FightEnded):
            reason = e.reason
        if isinstance(e, RoundStarted):
            actor = target = None
            continue
        if isinstance(e, TurnStarted):
            actor, target = e.actor, None
        elif isinstance(e, ActionChosen) and e.actor == actor:
            target = e.target or None
        for cid, c in state.roster.items():
            was = before.roster.get(cid)
            if was is None or was is c:
                continue
            lost = system.health(was)[0] - system.health(c)[0]
            if lost > 0:
                taken[cid] = taken.get(cid, 0) + lost
                by = None if e.rule == RULE_GM else actor if cid != actor else target
                if by is not None and by != cid:
                    dealt[by] = dealt.get(by, 0) + lost
            if system.is_active(was) and not system.is_active(c):
                down.setdefault(cid, max(state.round, 1))
            elif system.is_active(c):
                down.pop(cid, None)  # back up (healed by hand)
    known = {**dict(scenario.roster.items()), **dict(state.roster.items())}
    fighters = tuple(Fighter(cid, known[cid].name, known[cid].side, dealt.get(cid, 0),
                             taken.get(cid, 0), down.get(cid))
                     for cid in order if cid in known)
    return Summary(state.over, state.winner, reason, state.round, fighters)
