"""Sub-steps too large to enumerate, sampled from a lazily grown tree of their rolls.

Rule code is pure: given the same part of the state and the same values rolled, it
makes the same next roll and returns the same result. A :class:`RollTree` records,
for one sub-step and one part of the state, the paths met so far: at each node the
variable the rule rolls there and, per value drawn, the next node or the result. A
later call walks the tree drawing each variable's value with ``var.sample`` (exactly
what playing the rule draws), and plays the rule only where the path leaves the tree
(:class:`ReplayRoller` replays the values drawn so far, then draws on). Every value is
drawn from its own variable's distribution given the values before it, so the result
has the law of playing the rule; and as the walk and the play draw the same values
from the same stream, a fight does not depend on what the tree held.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import numpy as np

from fracas.core.recur import Trial
from fracas.dice.variables import Variable

T = TypeVar("T", bound=Hashable)
R = TypeVar("R")

NODE_BYTES = 500  # estimated cost of one node (its variable's reference, its dict)


class ReplayRoller:
    """Replays ``prefix`` (values already drawn), then draws from ``rng``; records every
    variable rolled and its value. Nested sub-steps are played inline. Only the lean loop
    plays through it, so the rules need not narrate."""

    kind = "random"
    narrates = False

    def __init__(self, rng: np.random.Generator, prefix: list[Any]) -> None:
        self.rng = rng
        self.prefix = prefix
        self.path: list[tuple[Variable[Any], Any]] = []

    def roll(self, var: Variable[T]) -> T:
        at = len(self.path)
        value: T = self.prefix[at] if at < len(self.prefix) else var.sample(self.rng)
        self.path.append((var, value))
        return value

    def resolve(self, fn: Callable[..., R], *args: Any) -> R:
        return fn(self, *args)


class _Node:
    __slots__ = ("children", "var")

    def __init__(self, var: Variable[Any]) -> None:
        self.var = var
        self.children: dict[Any, _Node | _Leaf] = {}


class _Leaf:
    __slots__ = ("result",)

    def __init__(self, result: Any) -> None:
        self.result = result


class RollTree:
    """The paths of one sub-step met so far, for one part of the state."""

    __slots__ = ("root",)

    def __init__(self) -> None:
        self.root: _Node | _Leaf | None = None

    def walk(self, rng: np.random.Generator) -> tuple[bool, Any]:
        """(True, result) when the draws stay in the tree, else (False, values drawn)."""
        node = self.root
        drawn: list[Any] = []
        while isinstance(node, _Node):
            value = node.var.sample(rng)
            drawn.append(value)
            node = node.children.get(value)
        if node is None:
            return False, drawn
        return True, node.result

    def add(self, path: list[tuple[Variable[Any], Any]], result: Any) -> int:
        """Record one played path; returns the nodes added (for the memory estimate)."""
        added = 0
        leaf = _Leaf(result)
        if not path:
            if self.root is None:
                self.root, added = leaf, 1
            return added
        if self.root is None:
            self.root, added = _Node(path[0][0]), 1
        node = self.root
        for i, (_, value) in enumerate(path):
            if not isinstance(node, _Node):  # a rule that is not pure: keep what is there
                return added
            child = node.children.get(value)
            if child is None:
                child = _Node(path[i + 1][0]) if i + 1 < len(path) else leaf
                node.children[value] = child
                added += 1
            node = child
        return added


class ReplayMemo:
    """The steps path's memo: per sub-step and its whole arguments, the :class:`RollTree`
    of the paths met so far. Walking a tree draws what playing the rule draws, so a fight
    played through the memo is the fight played without it, roll for roll; only the time
    differs. A rule whose arguments seldom repeat (its :class:`~fracas.core.recur.Trial`
    turned off) is played directly from then on; the memo is emptied past
    :attr:`MAX_NODES` nodes."""

    MAX_NODES = 300_000

    def __init__(self) -> None:
        self.trees: dict[Hashable, RollTree] = {}
        self.nodes = 0
        self.looked: dict[Hashable, Trial] = {}  # per rule
        self.off: set[Hashable] = set()

    def retry(self) -> None:
        """Fights from a new state: every rule is tried afresh (one given up where the
        last start's arguments seldom recurred may pay from this one); the trees stay."""
        self.looked.clear()
        self.off.clear()

    def play(self, roller: CacheRoller, fn: Callable[..., R], args: tuple[Any, ...]) -> R:
        """``fn(roller, *args)``, walked from its tree where the draws stay in it."""
        if fn in self.off:
            return fn(roller, *args)
        key = (fn, args)
        try:
            tree = self.trees.get(key)
        except TypeError:  # unhashable arguments: nothing to key a tree by
            self.off.add(fn)
            return fn(roller, *args)
        trial = self.looked.get(fn)
        if trial is None:
            trial = self.looked[fn] = Trial()
        drawn: list[Any] = []
        if tree is not None:
            stayed, got = tree.walk(roller.rng)
            if stayed:
                trial.count(True)
                return got  # type: ignore[no-any-return]
            drawn = got
        trial.count(False)
        if not trial.on:
            self.off.add(fn)
        replay = ReplayRoller(roller.rng, drawn)
        result: R = fn(replay, *args)
        if fn not in self.off:
            if tree is None:
                if self.nodes >= self.MAX_NODES:
                    self.trees.clear()
                    self.nodes = 0
                tree = self.trees[key] = RollTree()
            self.nodes += tree.add(replay.path, result)
        return result


class CacheRoller:
    """A random roller whose plain rolls are drawn directly and whose sub-steps
    (``resolve``) go through ``cache.play`` (a :class:`ReplayMemo` here, the sampled
    path's sub-step cache in :mod:`fracas.analysis.sampled`). It serves the lean loop
    only, so the rules need not narrate (:func:`~fracas.dice.rollers.narrated`)."""

    kind = "random"
    narrates = False

    def __init__(self, rng: np.random.Generator, cache: Any) -> None:
        self.rng = rng
        self.cache = cache

    def roll(self, var: Variable[T]) -> T:
        return var.sample(self.rng)

    def resolve(self, fn: Callable[..., R], *args: Any) -> R:
        return self.cache.play(self, fn, args)  # type: ignore[no-any-return]


class MemoRoller(CacheRoller):
    """The steps path's random roller: sub-steps played through a :class:`ReplayMemo`,
    the same values drawn as playing them."""
