"""Steps 3 to 5 of the combat check for one pool result, before any hit lands: the roll
told, Superior and Inferior, hit or miss and damage per hit (seed 004 · Step 3), then
each side's spending with the events that tell it (Steps 4 and 5).

Each reads a few values only (the plan and the result; the spending context, amounts,
explicit choices and policy), so each is cached: attacks meet the same ones again and
again, and the events come back as they were made the first time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from fracas.core.events import Compared, Event, Note, Total
from fracas.core.words import plain
from fracas.systems.genesys.check import DEFAULT
from fracas.systems.genesys.dice import PoolResult
from fracas.systems.genesys.events import GenesysRolled, GenesysSpent
from fracas.systems.genesys.spending import Context, Spend, spend_advantage, spend_threat

if TYPE_CHECKING:
    from fracas.systems.genesys.attack import Plan

STEP3 = "seed 004 · Step 3: results and damage"
QUALITIES = "seed 004 · Step 4: item qualities"


@dataclass(frozen=True)
class Rolled:
    """Step 3 for one pool result: its events, the net advantage after Superior and
    Inferior, whether the attack hits and its damage per hit (their damage bonus in)."""

    events: tuple[Event, ...]
    advantage: int
    hit: bool
    per_hit: int


@lru_cache(maxsize=4096)
def rolled(plan: Plan, a_id: str, result: PoolResult, symbols: str | None) -> Rolled:
    """The roll told, Superior and Inferior, hit or miss, damage per hit (``symbols``
    is in the key: what the dice showed is in the events)."""
    weapon = plan.weapon
    events: list[Event] = [GenesysRolled(STEP3, a_id, plan.spec.notation(), symbols or "",
                                         result.successes, result.advantage, result.triumphs,
                                         result.despairs, result.describe())]
    successes, advantage = result.successes, result.advantage
    bonus = 0
    for name, shift in (("Superior", 1), ("Inferior", -1)):
        if weapon.quality(name):
            advantage += shift
            bonus += shift
            word = "advantage" if shift > 0 else "threat"
            events.append(Note(QUALITIES, f"{name}: one automatic {word} (net advantage now "
                                          f"{advantage}) and {shift:+d} damage"))
    hit = successes >= 1
    events.append(Compared(STEP3, "net successes", successes, ">=" if hit else "<", "needed",
                           1, "the attack hits" if hit else "the attack misses"))
    base = plan.base
    per_hit = max(0, base + successes + bonus) if hit else 0
    if hit:
        parts = [(f"{weapon.name}" + (" (Brawn + " + str(weapon.damage)[1:] + ")"
                                      if isinstance(weapon.damage, str) else ""), base),
                 ("net successes", successes)]
        if bonus:
            parts.append(("Superior" if bonus > 0 else "Inferior", bonus))
        events.append(Total(STEP3, "damage per hit", tuple(parts), per_hit))
    return Rolled(tuple(events), advantage, hit, per_hit)


@lru_cache(maxsize=4096)
def advantage_spent(ctx: Context, advantage: int, triumphs: int, explicit: tuple[str, ...],
                    policy: str, who: tuple[str, str], given: bool
                    ) -> tuple[tuple[Spend, ...], tuple[Event, ...]]:
    """The attacker's advantage and triumph spent (``who``: the attacker's id and name;
    ``given``: the policy is the attack's option, not the table default): what it bought
    and the events telling it."""
    bought, notes, left, big_left, chosen = spend_advantage(ctx, advantage, triumphs, explicit,
                                                             policy)
    events = announce(who, bought, notes, "a", "t", policy, "advantage_policy", chosen, given)
    if left > 0 or big_left:
        events += (Note("seed 004 · Step 4", f"unspent: {left} advantage, {big_left} triumph"),)
    return bought, events


@lru_cache(maxsize=4096)
def threat_spent(ctx: Context, threat: int, despairs: int, explicit: tuple[str, ...],
                 policy: str, who: str, given: bool
                 ) -> tuple[tuple[Spend, ...], tuple[Event, ...]]:
    """Threat and despair spent by ``who`` (the GM, or a player): what it bought and the
    events telling it."""
    bought, notes, _, _, chosen = spend_threat(ctx, threat, despairs, explicit, policy)
    return bought, announce((who, who), bought, notes, "h", "d", policy, "threat_policy",
                            chosen, given)


def announce(spender: tuple[str, str], bought: tuple[Spend, ...], notes: tuple[str, ...],
             small: str, big: str, policy: str, knob: str, chosen: int, given: bool
             ) -> tuple[Event, ...]:
    """The spending events (``spender``: as the spend event names them, and by name):
    explicit choices first, then what the policy bought."""
    who, name = spender
    events: list[Event] = []
    for i, s in enumerate(bought):
        if i == 0 and chosen:
            events.append(Note(s.rule, f"{name} spends as the attack's options choose"))
        if i == chosen:
            source = "the attack's options" if given else f"{DEFAULT} · {plain(knob)}"
            rest = "the rest " if chosen else ""
            events.append(Note(s.rule, f"{name} spends {rest}by policy: {plain(policy)} "
                                       f"({source})"))
        events.append(GenesysSpent(s.rule, who, s.cost(small, big), s.label, s.text))
    for n in notes:
        events.append(Note(bought[0].rule if bought else "seed 004 · Steps 4-5",
                           f"skipped: {n}"))
    return tuple(events)
