"""Policies: how combatants that no person controls choose their actions and reactions.

* ``aggressive`` (the default): attack the enemy most likely to drop - the one with
  the least health left - with the system's default options; react with the
  default reaction.
* ``cautious``: as aggressive while above half health; at half health or less, take
  a defensive action (total defense, guard, ...) when the system offers one; always
  react with the reaction of least expected damage.
* ``random``: any legal action and reaction, uniformly (drawn from the fight's
  roller on its own ``policy`` stream, so a seed repeats the fight).
* ``best-odds``: the action with the highest exact expected damage (ties: the best
  chance to take the target out), and the reaction with the least; exact odds come
  from the same rule code, memoised.

``cautious`` and ``best-odds`` rank options by exact odds computed in each combatant's
*ranking state* (:meth:`~fracas.core.system.RuleSystem.ranking_state`: what changes the
ranking, e.g. health set aside), so a matchup's ranking is computed once and found again
in later states and fights (:func:`~fracas.odds.cache.cached_odds` keys it by the sheets
and those states). Once an attack could take its target out (where health caps damage,
:attr:`~fracas.core.system.RuleSystem.health_caps_damage`), and for options tied on
expected damage, the options are ranked again with the real health kept, expected damage
then the chance to take the target out, so the take-out chance weighs where health
matters. With ``exact_ranking(True)`` every option is
ranked on the real state (the reference: tests/encounter/test_policy_ranking.py compares
the two on every example fight).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Sequence
from fractions import Fraction
from typing import ClassVar

from fracas.core.legal import LegalActions, first
from fracas.core.model import Action, Combatant, Roster
from fracas.core.recur import recall, remember
from fracas.core.system import RuleSystem
from fracas.dice.distribution import Distribution
from fracas.dice.rollers import Roller
from fracas.dice.variables import Fixed
from fracas.memo_marks import Mark, added_since, mark
from fracas.odds.attack import AttackOdds
from fracas.odds.cache import (
    OddsMark,
    OddsMemo,
    cached_odds,
    forget_odds,
    known_odds,
    learn_odds,
    odds_mark,
    work_out,
)


def _pick_uniform(roller: Roller, n: int, what: str) -> int:
    if n == 1:
        return 0
    return roller.roll(Fixed(Distribution.uniform(range(n)), label=what, stream="policy"))


def _health_left(system: RuleSystem, roster: Roster, cid: str) -> tuple[int, Fraction]:
    current, share, _ = _health_of(system, roster[cid])
    return current, share


def _health_of(system: RuleSystem, c: Combatant) -> tuple[int, Fraction, int]:
    """(current health, its share of the maximum, :func:`share_order`) of one combatant,
    worked out once per combatant object (a combatant no step changed is the same object
    again)."""
    entry = _HEALTH.get(id(c))  # by identity: no hash, no comparison of states
    if entry is not None and entry[0] is c and entry[1] is system:
        return entry[2]
    current, maximum = system.health(c)
    most = max(maximum, 1)
    found = (current, _share(current, most), share_order(current, most))
    remember(_HEALTH, id(c), (c, system, found), MEMO_SIZE)  # c kept: its id is not reused
    return found


def share_order(current: int, most: int) -> int:
    """An integer that orders ``current / most`` among shares of the same ``current``,
    without comparing fractions: the share is the less the greater ``most`` when
    ``current`` > 0, the same when it is 0, the less the smaller ``most`` when it is < 0."""
    return -most if current > 0 else most if current < 0 else 0


@functools.lru_cache(maxsize=4096)
def _share(current: int, maximum: int) -> Fraction:
    """``current / maximum`` exactly (health shares recur: made once)."""
    return Fraction(current, maximum)


class Policy(ABC):
    """Chooses an actor's action and a defender's reaction."""

    name: ClassVar[str]
    #: Whether the choice depends only on the actions and the roster (it draws nothing and
    #: asks no one): the lean fight loop then makes each choice once per state.
    steady: ClassVar[bool] = False

    @property
    def takes_first_reaction(self) -> bool:
        """Whether :meth:`react` is this default, which takes the first variant (then
        the lean fight loop asks the system for that one only,
        :meth:`~fracas.core.system.RuleSystem.first_reaction`)."""
        return type(self).react is Policy.react

    @abstractmethod
    def choose(self, roller: Roller, system: RuleSystem, actor: str,
               actions: Sequence[Action], roster: Roster) -> Action:
        """One of ``actions`` (never empty)."""

    def choose_before_round(self, roller: Roller, system: RuleSystem, actor: str,
                            actions: Sequence[Action], roster: Roster) -> Action:
        """One of ``actions``, chosen as a round begins, before its initiative
        (:meth:`~fracas.core.system.RuleSystem.round_choices`): as any action."""
        return self.choose(roller, system, actor, actions, roster)

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        """One of ``variants``: the attack with the defender's chosen reaction."""
        return variants[0]


class Aggressive(Policy):
    name = "aggressive"
    steady = True

    def choose(self, roller: Roller, system: RuleSystem, actor: str,
               actions: Sequence[Action], roster: Roster) -> Action:
        """The first attack (in the rules' order) on the combatant with the least health
        left that can be attacked (then the least share of it, then the first in the
        roster). Actions whose legality is still to be checked are looked at lazily, one
        target at a time; a plain list is read once, each target's first attack noted."""
        order = []
        for i, c in enumerate(roster.combatants()):
            current, _, tie = _health_of(system, c)
            order.append((current, tie, i, c.id))
        order.sort()
        listed = actions.plain() if isinstance(actions, LegalActions) else actions
        if listed is not None:  # nothing to check: each target's first attack, in one pass
            attacks: dict[str, Action] = {}
            for a in listed:
                if a.offensive and a.target is not None and a.target not in attacks:
                    attacks[a.target] = a
            for entry in order:
                if entry[3] in attacks:
                    return attacks[entry[3]]
            return listed[0]
        for entry in order:
            found = first(actions, _attack_on(entry[3]))
            if found is not None:
                return found
        return actions[0]


def _attack_on(cid: str) -> Callable[[Action], bool]:
    return lambda a: a.offensive and a.target == cid


_EXACT = [False]  # rank every option on the real state (the reference ranking)


def exact_ranking(on: bool) -> bool:
    """Rank on the real state only (``True``) or through the ranking states (``False``,
    the default); returns the previous setting."""
    before = _EXACT[0]
    _EXACT[0] = on
    return before


def exact_ranking_on() -> bool:
    """Whether every option is ranked on the real state now (:func:`exact_ranking`)."""
    return _EXACT[0]


@contextlib.contextmanager
def exact_rankings() -> Iterator[None]:
    """Within: every option ranked on the real state (the exact fight odds use this, so
    their figures never depend on the ranking states)."""
    before = exact_ranking(True)
    try:
        yield
    finally:
        exact_ranking(before)


#: Memos of the rankings (pure functions of their keys; each emptied past MEMO_SIZE):
#: a combatant's ranking or bystander state, the odds of options in a ranking roster, and
#: the choice among options ranked on a roster with real health kept, a combatant's health
#: left.
_RANKED: dict[tuple[object, ...], Combatant] = {}
_VIEWS: dict[tuple[object, ...], list[AttackOdds]] = {}
_CHOSEN: dict[tuple[object, ...], Action] = {}
_HEALTH: dict[int, tuple[Combatant, RuleSystem, tuple[int, Fraction, int]]] = {}
MEMO_SIZE = 8_192
HALF = Fraction(1, 2)  # the share of health at or below which ``cautious`` turns defensive


PolicyMemos = tuple[OddsMemo, dict[tuple[object, ...], Combatant],
                    dict[tuple[object, ...], list[AttackOdds]], dict[tuple[object, ...], Action]]


#: Where the rankings' memos and the odds stood at a moment (:func:`memos_mark`).
MemosMark = tuple[OddsMark, Mark, Mark, Mark]


def memos_mark() -> MemosMark:
    """Where the memos :func:`known_memos` ships stand now."""
    return odds_mark(), mark(_RANKED), mark(_VIEWS), mark(_CHOSEN)


def known_memos(since: MemosMark | None = None) -> PolicyMemos:
    """The rankings' memos keyed by value, and the odds they read, as picklable data for
    a worker process (:func:`learn_memos`): a simulation's workers start with what the
    main process already worked out (the memo by identity, of health, stays behind).
    With ``since`` (a :func:`memos_mark`): only what this process added after it, the
    news a worker's task sends the other workers."""
    odds, ranked, views, chosen = since or (None, None, None, None)
    return (known_odds(odds), dict(added_since(_RANKED, ranked)),
            dict(added_since(_VIEWS, views)), dict(added_since(_CHOSEN, chosen)))


def learn_memos(memos: PolicyMemos) -> None:
    """Take in another process's memos (:func:`known_memos`): pure functions of their
    keys, so the choices made with them are the ones this process would make."""
    odds, ranked, views, chosen = memos
    learn_odds(odds)
    _RANKED.update(ranked)
    _VIEWS.update(views)
    _CHOSEN.update(chosen)
    for memo in (_RANKED, _VIEWS, _CHOSEN):
        if len(memo) > MEMO_SIZE:
            memo.clear()


def forget_memos() -> None:
    """Empty the rankings' memos and the exact odds they read (a cold start: the
    benchmarks time the first figure of a fight as a fresh process works it out)."""
    forget_odds()
    for memo in (_RANKED, _VIEWS, _CHOSEN, _HEALTH):
        memo.clear()
    _share.cache_clear()


def ranking_roster(system: RuleSystem, roster: Roster, kept: Collection[str] = (),
                   parties: Collection[str] | None = None) -> Roster:
    """The roster with every combatant in its ranking state (health as at full; the
    real health of those in ``kept``); with ``parties``, everyone else in its bystander
    state. A combatant ranked before is the same object again (rosters of them compare
    by identity)."""
    party = frozenset(parties) if parties is not None else None
    out, same = [], True
    for c in roster.combatants():
        bystander = party if party is not None and c.id not in party else None
        key = (system, c, bystander) if bystander is not None else (system, c, c.id in kept)
        ranked = _RANKED.get(key)
        if ranked is None:
            state = (system.bystander_state(c, bystander) if bystander is not None
                     else system.ranking_state(c, c.id in kept))
            ranked = remember(_RANKED, key, c if state is c.state
                              else dataclasses.replace(c, state=state), MEMO_SIZE)
        same = same and ranked is c
        out.append(ranked)
    return roster if same else Roster(out)


def _parties(options: list[Action]) -> set[str]:
    """The options' actors and targets (everyone else is a bystander to them)."""
    return {a.actor for a in options} | {a.target for a in options if a.target is not None}


def _targets_kept(system: RuleSystem, options: list[Action], roster: Roster,
                  parties: set[str]) -> Roster:
    """The ranking roster with the real health of the options' targets only: health caps
    the damage a target loses and decides whether it is taken out; everybody else's
    counts for an attack as its ranking state (or bystander state) says
    (tests/encounter/test_policy_ranking.py checks the choices against the exact ranking
    on every example fight)."""
    return ranking_roster(system, roster,
                          kept={a.target for a in options if a.target is not None},
                          parties=parties)


def _odds_key(system: RuleSystem, action: Action, roster: Roster) -> tuple[Fraction, Fraction]:
    odds = cached_odds(system, action, roster)
    return odds.expected_damage, odds.p_taken_out


def _best(system: RuleSystem, options: list[Action], roster: Roster, most: bool) -> Action:
    """The option of most (or least) expected damage, then chance to take the target out;
    the first such in order."""
    sign = -1 if most else 1
    if _EXACT[0]:
        return _first_ranked(system, options, roster, sign)
    parties = _parties(options)
    ranked = ranking_roster(system, roster, parties=parties)
    if ranked is roster:
        return _chosen(system, options, roster, sign)
    views = recall(_VIEWS, (system, tuple(options), ranked),
                   lambda: _odds_of(system, options, ranked), MEMO_SIZE)
    if _in_reach(system, options, views, roster):  # health matters: kept as it is
        return _chosen_kept(system, options, options, roster, ranked, parties, sign)
    damage = [odds.expected_damage for odds in views]
    top = min(sign * d for d in damage)
    tied = [a for a, d in zip(options, damage, strict=True) if sign * d == top]
    if len(tied) == 1:
        return tied[0]
    return _chosen_kept(system, tied, options, roster, ranked, parties, sign)


def _chosen_kept(system: RuleSystem, among: list[Action], options: list[Action],
                 roster: Roster, ranked: Roster, parties: set[str], sign: int) -> Action:
    """:func:`_chosen` among ``among`` on the roster :func:`_targets_kept` makes for
    ``options``. That roster is ``ranked`` with the targets' real health, so the targets
    as they are and ``ranked`` key the choice: the roster is built only when the choice
    is new."""
    targets = tuple(dict.fromkeys(a.target for a in options if a.target is not None))
    return recall(_CHOSEN, (system, tuple(among), ranked, tuple(roster[t] for t in targets),
                            sign),
                  lambda: _first_ranked(system, among,
                                        _targets_kept(system, options, roster, parties), sign),
                  MEMO_SIZE)


def _chosen(system: RuleSystem, options: list[Action], roster: Roster, sign: int) -> Action:
    """The option of most (``sign`` -1) or least (1) expected damage on ``roster``, then
    chance to take the target out; the first such in order."""
    return recall(_CHOSEN, (system, tuple(options), roster, sign),
                  lambda: _first_ranked(system, options, roster, sign), MEMO_SIZE)


def _odds_of(system: RuleSystem, options: list[Action], roster: Roster) -> list[AttackOdds]:
    """Every option's odds in ``roster`` (those not known yet worked out side by side
    where a simulation has a worker to spare: :func:`~fracas.odds.cache.work_out`)."""
    work_out(system, options, roster)
    return [cached_odds(system, a, roster) for a in options]


def _first_ranked(system: RuleSystem, options: list[Action], roster: Roster, sign: int
                  ) -> Action:
    work_out(system, options, roster)
    return min(options, key=lambda a: tuple(sign * x for x in _odds_key(system, a, roster)))


def _in_reach(system: RuleSystem, options: list[Action], views: list[AttackOdds],
              roster: Roster) -> bool:
    """Could one of these attacks, at its most damage, take its target out (so that the
    target's health weighs in the ranking)? Never where health does not cap damage."""
    if not system.health_caps_damage:
        return False
    for action, odds in zip(options, views, strict=True):
        if action.target is None:
            continue
        target = roster[action.target]
        current, _ = system.health(target)
        most = odds.damage.max()
        if current - most <= system.out_at(target):
            return True
    return False


def _least_damage(system: RuleSystem, variants: list[Action], roster: Roster) -> Action:
    return _best(system, variants, roster, most=False)


class Cautious(Aggressive):
    name = "cautious"

    def choose(self, roller: Roller, system: RuleSystem, actor: str,
               actions: Sequence[Action], roster: Roster) -> Action:
        _, fraction = _health_left(system, roster, actor)
        if fraction <= HALF:
            defensive = first(actions, lambda a: not a.offensive)
            if defensive is not None:
                return defensive
        return super().choose(roller, system, actor, actions, roster)

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        return _least_damage(system, variants, roster) if len(variants) > 1 else variants[0]


class RandomPolicy(Policy):
    name = "random"

    def choose(self, roller: Roller, system: RuleSystem, actor: str,
               actions: Sequence[Action], roster: Roster) -> Action:
        return actions[_pick_uniform(roller, len(actions), f"{actor}'s random choice")]

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        return variants[_pick_uniform(roller, len(variants), "random reaction")]


class BestOdds(Policy):
    name = "best-odds"
    steady = True

    def choose(self, roller: Roller, system: RuleSystem, actor: str,
               actions: Sequence[Action], roster: Roster) -> Action:
        attacks = [a for a in actions if a.offensive and a.target is not None]
        if not attacks:
            return actions[0]

        return _best(system, attacks, roster, most=True)

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        return _least_damage(system, variants, roster) if len(variants) > 1 else variants[0]


POLICIES: dict[str, Policy] = {p.name: p for p in (Aggressive(), Cautious(), RandomPolicy(),
                                                    BestOdds())}
DEFAULT_POLICY = "aggressive"
