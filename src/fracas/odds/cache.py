"""Exact odds memoised across decisions, fights and sweep points.

The policies, live play and sweeps ask for the odds of the same action in states that
differ only in combatants the odds never read; :func:`cached_odds` keys each answer by
what it read (see :mod:`fracas.odds.reads`), so the same matchup is found once.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from fracas.core.model import Action, Roster
from fracas.core.recur import remember
from fracas.core.system import RuleSystem
from fracas.dice.rollers import ExactRoller
from fracas.memo_marks import Mark, added_since, mark
from fracas.odds.attack import AttackOdds, attack_odds
from fracas.odds.reads import EVERY, ReadTracker, project

_ODDS_CACHE: OrderedDict[tuple[Any, ...], AttackOdds] = OrderedDict()
_ODDS_CACHE_SIZE = 4096
_READ_SETS: dict[tuple[RuleSystem, Action], list[tuple[str, ...]]] = {}
#: The answers worked out in this process, in order (emptied whole past the cache's size):
#: what :func:`known_odds` sends since a mark (the cache itself is reordered as it is read).
_FOUND: dict[tuple[Any, ...], AttackOdds] = {}
_WORKED = [0]  # answers worked out in this process, ever (a count that only grows)
_SHARED = ExactRoller(summaries_only=True)  # sub-steps memoised across odds (e.g. a
# contest roll per rank pair); the odds read summaries only
_SHARED_MEMO_LIMIT = 50_000


def _part(roster: Roster, reads: tuple[str, ...]) -> tuple[Any, ...]:
    """The part of ``roster`` the odds read: those combatants' states, and their sheets
    too, since this cache outlives a fight (another scenario, or a sweep's next point,
    may give the same ids and states other sheets)."""
    if reads == (EVERY,):
        return (roster,)
    return (project(roster, reads), tuple(roster[i].sheet for i in reads))


OddsMemo = tuple[list[tuple[tuple[Any, ...], AttackOdds]],
                 dict[tuple[RuleSystem, Action], list[tuple[str, ...]]],
                 list[tuple[tuple[Any, ...], Any]]]


#: Where the answers worked out here and the shared sub-step memo stood at a moment.
OddsMark = tuple[Mark, Mark]


def odds_mark() -> OddsMark:
    """Where this cache stands now (:func:`known_odds` gives what it gains after)."""
    return mark(_FOUND), _SHARED.memo_mark()


def known_odds(since: OddsMark | None = None) -> OddsMemo:
    """What this cache knows, as plain picklable data: a worker process given it
    (:func:`learn_odds`) starts warm instead of working the same odds out again: the
    answers, and the sub-step distributions they were built from (without them a worker
    works a new matchup's odds out from scratch, several times slower: issue 39), and the
    read sets those answers are keyed by (no others: they find no answer). With
    ``since`` (an :func:`odds_mark`): only the answers this process worked out, and the
    sub-steps it added, after it (what a worker's task sends the others)."""
    answers = (list(_ODDS_CACHE.items()) if since is None
               else [(k, v) for k, v in added_since(_FOUND, since[0])])
    reads: dict[tuple[RuleSystem, Action], list[tuple[str, ...]]] = {}
    for (base, read, _), _answer in answers:  # the read sets these answers are keyed by
        known = reads.setdefault(base, [])
        if read not in known:
            known.append(read)
    return answers, reads, _SHARED.known_memo(None if since is None else since[1])


def learn_odds(memo: OddsMemo) -> None:
    """Take in what another process's cache knew (:func:`known_odds`): the answers are
    exact and keyed by value, so they are the ones this process would work out."""
    answers, read_sets, steps = memo
    _SHARED.learn_memo(steps)
    _SHARED.trim_memo(_SHARED_MEMO_LIMIT)
    for key, found in answers:
        _ODDS_CACHE[key] = found
    while len(_ODDS_CACHE) > _ODDS_CACHE_SIZE:
        _ODDS_CACHE.popitem(last=False)
    for base, reads in read_sets.items():
        known = _READ_SETS.setdefault(base, [])
        known.extend(r for r in reads if r not in known)


def worked_out() -> int:
    """How many answers this process has worked out so far (not found in the cache)."""
    return _WORKED[0]


def forget_odds() -> None:
    """Empty this cache and its shared sub-step memo (a cold start: benchmarks/)."""
    _ODDS_CACHE.clear()
    _FOUND.clear()
    _READ_SETS.clear()
    _SHARED.trim_memo(0)


def known_answer(system: RuleSystem, action: Action, roster: Roster) -> AttackOdds | None:
    """The odds of ``action`` in ``roster`` if this cache knows them, else None (nothing
    is worked out)."""
    base = (system, action)
    for reads in _READ_SETS.get(base, ()):
        key = (base, reads, _part(roster, reads))
        found = _ODDS_CACHE.get(key)
        if found is not None:
            _ODDS_CACHE.move_to_end(key)
            return found
    return None


def answer_id(system: RuleSystem, action: Action, roster: Roster) -> str:
    """A name for the answer to ``action`` in ``roster``, known before it is worked out,
    that processes forked from one another give alike (issue 39: who works out which
    answer): a hash of the action and what the read set its answers have had reads (the
    whole roster when none is known yet). Two rosters with one answer may get two names,
    and processes started afresh (another hash seed) other names: then the answer is
    only worked out twice."""
    reads = _READ_SETS.get((system, action))
    part = _part(roster, reads[0]) if reads else (roster,)
    return format(hash((action, part)) & 0xFFFF_FFFF_FFFF_FFFF, "016x")


#: Who works out missing answers side by side (a simulation whose other processes work
#: out odds too, issue 39): given the system, the missing actions and the roster, it puts
#: their answers in this cache and says whether it did (else they are worked out here in
#: turn).
Aside = Callable[[RuleSystem, list[Action], Roster], bool]
_ASIDE: list[Aside] = []


@contextlib.contextmanager
def answers_aside(aside: Aside) -> Iterator[None]:
    """Within: :func:`work_out` hands the answers it misses to ``aside``."""
    _ASIDE.append(aside)
    try:
        yield
    finally:
        _ASIDE.remove(aside)


def work_out(system: RuleSystem, actions: Sequence[Action], roster: Roster) -> None:
    """Have the odds of every one of ``actions`` in ``roster`` known before a ranking
    reads them all in turn: with :func:`answers_aside` in force, those missing are handed
    to it, to be worked out side by side. The answers are the same wherever they are
    worked out (exact, keyed by value); without a helper this does nothing."""
    if not _ASIDE:
        return
    missing = [a for a in dict.fromkeys(actions) if known_answer(system, a, roster) is None]
    if missing:
        _ASIDE[-1](system, missing, roster)


def cached_odds(system: RuleSystem, action: Action, roster: Roster) -> AttackOdds:
    """Exact odds of an action, memoised by the system, the action and the states of the
    combatants the odds read (found by computing them on a :class:`ReadTracker`: the
    actor and the target, as a rule), so that the same matchup in another fight, or with
    others hurt meanwhile, is not computed again."""
    found = known_answer(system, action, roster)
    if found is not None:
        return found
    _SHARED.trim_memo(_SHARED_MEMO_LIMIT)
    _WORKED[0] += 1
    tracker = ReadTracker(roster)
    found = attack_odds(system, action, tracker, _SHARED)
    reads = ((EVERY,) if EVERY in tracker.reads or len(tracker.reads) >= len(roster)
             else tuple(sorted(tracker.reads)))
    base = (system, action)
    known = _READ_SETS.setdefault(base, [])
    if reads not in known:
        known.append(reads)
    key = (base, reads, _part(roster, reads))
    _ODDS_CACHE[key] = remember(_FOUND, key, found, _ODDS_CACHE_SIZE)
    if len(_ODDS_CACHE) > _ODDS_CACHE_SIZE:
        _ODDS_CACHE.popitem(last=False)
    return found
