"""The actions an actor has, listed lazily.

A rule system lists an actor's actions as candidates in the rules' order, each kept when
it is legal (:meth:`~fracas.core.system.RuleSystem.legal_actions`). Checking every
candidate is most of a simulated turn's work for a policy that takes the first attack on
its chosen target, so :class:`LegalActions` checks a candidate only when asked about it:
:meth:`LegalActions.first` finds the first legal action a test accepts, testing each
candidate before its legality; reading the whole list (``len``, an index, iterating to
the end) checks every candidate once. Either way the actions and their order are the
rules' own: ``list(system.legal_actions(...)) == system.actions(...)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import overload

from fracas.core.model import Action

Test = Callable[[Action], bool]


class LegalActions(Sequence[Action]):
    """Candidates in order, each listed when ``legal`` (None: every one is legal)."""

    __slots__ = ("_full", "_legal", "_listed", "_source", "_verdicts")

    def __init__(self, candidates: Iterable[Action], legal: Test | None = None) -> None:
        self._source: Iterator[Action] | None = iter(candidates)
        self._legal = legal
        self._listed: list[Action] = []  # the candidates generated so far
        self._verdicts: list[bool | None] = []  # their legality, once checked
        self._full: list[Action] | None = None  # every legal action, once listed

    def _candidates(self) -> Iterator[tuple[int, Action]]:
        i = 0
        while True:
            if i == len(self._listed):
                if self._source is None:
                    return
                found = next(self._source, None)
                if found is None:
                    self._source = None
                    return
                self._listed.append(found)
                self._verdicts.append(None if self._legal is not None else True)
            yield i, self._listed[i]
            i += 1

    def _is_legal(self, i: int) -> bool:
        verdict = self._verdicts[i]
        if verdict is None:
            assert self._legal is not None
            verdict = self._verdicts[i] = self._legal(self._listed[i])
        return verdict

    def first(self, test: Test | None = None) -> Action | None:
        """The first legal action that passes ``test`` (tested before its legality is
        checked), or None."""
        listed = self.plain()
        if listed is not None:  # nothing to check: every candidate, listed once
            return next((a for a in listed if test is None or test(a)), None)
        for i, action in self._candidates():
            if (test is None or test(action)) and self._is_legal(i):
                return action
        return None

    def plain(self) -> list[Action] | None:
        """Every action, in order, when none needs checking (listed once); None when
        their legality is still to be checked one by one (then ask :meth:`first`)."""
        if self._legal is not None:
            return None
        if self._source is not None:
            self._listed.extend(self._source)
            self._verdicts.extend([True] * (len(self._listed) - len(self._verdicts)))
            self._source = None
        return self._listed

    def where(self, test: Test) -> LegalActions:
        """The legal actions that pass ``test``, in order, listed as lazily."""
        return LegalActions((a for _, a in self._candidates() if test(a)), self._legal)

    def __iter__(self) -> Iterator[Action]:
        return (a for i, a in self._candidates() if self._is_legal(i))

    def _all(self) -> list[Action]:
        if self._full is None:
            self._full = list(iter(self))  # not list(self): that asks len() first
        return self._full

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self._all()[index]

    def __bool__(self) -> bool:
        return self.first() is not None

    def __repr__(self) -> str:
        return f"LegalActions({self._all()!r})"


def first(actions: Sequence[Action], test: Test) -> Action | None:
    """The first of ``actions`` that passes ``test`` (lazily for :class:`LegalActions`)."""
    if isinstance(actions, LegalActions):
        return actions.first(test)
    return next((a for a in actions if test(a)), None)
