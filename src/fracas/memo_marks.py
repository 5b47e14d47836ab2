"""What a memo gained since a moment: the news one worker process sends the others.

A simulation's workers each work out exact odds and sub-step distributions that the others
would work out again; each task's worker sends back what its memos gained during the task,
and the next tasks bring it to the other workers (issue 39). The memos marked here are
filled only by insertion and emptied only whole, so a memo's gains since a :data:`Mark`
are the entries past its length then, unless it was emptied meanwhile (then all of it).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: A memo's size at a moment and its first key then (a memo emptied and refilled since
#: begins with another key object).
Mark = tuple[int, object]


def mark(memo: dict[K, V]) -> Mark:
    """Where ``memo`` stands now (for :func:`added_since`)."""
    return (len(memo), next(iter(memo), None))


def added_since(memo: dict[K, V], since: Mark | None) -> list[tuple[K, V]]:
    """The entries put in ``memo`` since ``since`` (all of them without a mark, or when
    the memo was emptied meanwhile). An entry missed or sent twice costs only time: memos
    are pure functions of their keys."""
    if since is None:
        return list(memo.items())
    held, first = since
    if len(memo) < held or (held and next(iter(memo), None) is not first):
        return list(memo.items())
    return list(itertools.islice(memo.items(), held, None))
