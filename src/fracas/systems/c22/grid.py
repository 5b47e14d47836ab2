"""Grids and movement (seed 000 · Using a Grid).

Hex grid: 2 m a hex, three hexes per movement action. Square grid: 2 m a square, one
diagonal per movement action (seed: "each square marks 2 meters and moving diagonally can
be performed once per movement action"; a diagonal costs 2 m by default, 3 m as a table
option), and a character with less movement left than the next space costs cannot move
into it. Positions are
axial ``(q, r)`` on a hex grid and ``(x, y)`` on a square grid.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from fracas.errors import InputError

Pos = tuple[int, int]

HEX_STEPS: tuple[Pos, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
SQUARE_STEPS: tuple[Pos, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1),
                                 (1, 1), (-1, 1), (-1, -1), (1, -1))


@dataclass(frozen=True)
class Grid:
    """The grid's kind and its movement costs (all table defaults but the seed's 2 m, 3 hexes
    and one diagonal)."""

    kind: str = "hex"
    metres_per_space: int = 2
    diagonal_cost_m: int = 2
    diagonals_per_action: int = 1
    blocked_by_others: bool = True

    def steps(self) -> tuple[Pos, ...]:
        return HEX_STEPS if self.kind == "hex" else SQUARE_STEPS

    def neighbours(self, p: Pos) -> list[Pos]:
        return [(p[0] + a, p[1] + b) for a, b in self.steps()]

    def adjacent(self, a: Pos, b: Pos) -> bool:
        return self.distance(a, b) == 1

    def distance(self, a: Pos, b: Pos) -> int:
        """Spaces between two positions (hex distance; on squares a diagonal counts one)."""
        dq, dr = b[0] - a[0], b[1] - a[1]
        if self.kind == "hex":
            return (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        return max(abs(dq), abs(dr))

    def diagonal(self, a: Pos, b: Pos) -> bool:
        return self.kind == "square" and a[0] != b[0] and a[1] != b[1]

    def cost(self, a: Pos, b: Pos) -> int:
        """Metres to move from a space into the next one."""
        return self.diagonal_cost_m if self.diagonal(a, b) else self.metres_per_space


@dataclass(frozen=True)
class Allowance:
    """A turn's movement: a number of movement actions of so many spaces each."""

    actions: int
    spaces_per_action: int

    def metres(self, grid: Grid) -> int:
        return self.spaces_per_action * grid.metres_per_space


@dataclass(frozen=True)
class Walk:
    """Where a move along a path got: the spaces entered, metres spent, why it stopped."""

    path: tuple[Pos, ...]
    metres: int
    stopped: str  # "" when the whole path was walked

    @property
    def end(self) -> Pos | None:
        return self.path[-1] if self.path else None


@dataclass(frozen=True)
class _Budget:
    actions_left: int
    metres_left: int
    diagonals_left: int


def _enter(grid: Grid, allowance: Allowance, budget: _Budget, a: Pos, b: Pos
           ) -> _Budget | str:
    """The budget after moving a → b, or why the character cannot move into b."""
    cost, diagonal = grid.cost(a, b), grid.diagonal(a, b)
    for fresh in (False, True):
        if fresh:
            if budget.actions_left <= 0:
                break
            budget = _Budget(budget.actions_left - 1, allowance.metres(grid),
                             grid.diagonals_per_action)
        if cost <= budget.metres_left and (not diagonal or budget.diagonals_left > 0):
            return _Budget(budget.actions_left, budget.metres_left - cost,
                           budget.diagonals_left - diagonal)
    if diagonal and budget.diagonals_left <= 0 and cost <= budget.metres_left:
        return "no diagonal left in this movement action"
    return f"needs {cost} m, {budget.metres_left} m of movement left"


def _start(allowance: Allowance) -> _Budget:
    return _Budget(allowance.actions, 0, 0)


def walk(grid: Grid, start: Pos, path: Iterable[Pos], allowance: Allowance) -> Walk:
    """Move along ``path`` (checked with :func:`check_path`) while movement is left: a
    movement action's leftover is lost when the next one begins; a character with too
    little movement for the next space stops (seed: they cannot move)."""
    budget, here, spent = _start(allowance), start, 0
    taken: list[Pos] = []
    for nxt in path:
        result = _enter(grid, allowance, budget, here, nxt)
        if isinstance(result, str):
            return Walk(tuple(taken), spent, f"cannot move into {nxt}: {result}")
        spent += grid.cost(here, nxt)
        budget, here = result, nxt
        taken.append(nxt)
    return Walk(tuple(taken), spent, "")


def check_path(grid: Grid, start: Pos | None, path: tuple[Pos, ...], occupied: set[Pos],
               where: str, who: str) -> None:
    """Raise :class:`InputError` for a path that is not a move on the grid: no position,
    a step to a space that is not adjacent, a space another combatant stands in."""
    if not path:
        return
    if start is None:
        raise InputError(f"{who} has no position on the grid, so cannot move", path=where,
                         allowed="give the combatant a position: [q, r]")
    here = start
    for i, nxt in enumerate(path):
        if not grid.adjacent(here, nxt):
            raise InputError(f"illegal move: {nxt} is not next to {here} on the {grid.kind} "
                             "grid", path=f"{where}[{i}]",
                             allowed=", ".join(map(str, grid.neighbours(here))))
        if grid.blocked_by_others and nxt in occupied:
            raise InputError(f"illegal move: {nxt} is occupied by another combatant",
                             path=f"{where}[{i}]", allowed="a free space")
        here = nxt


def find_path(grid: Grid, start: Pos, goal: Callable[[Pos], bool], allowance: Allowance,
              occupied: set[Pos]) -> tuple[Pos, ...] | None:
    """The shortest path that :func:`walk` completes within ``allowance`` and that ends
    where ``goal`` holds (None when no such path)."""
    if goal(start):
        return ()
    first = (start, _start(allowance))
    seen = {first}
    queue: deque[tuple[Pos, _Budget, tuple[Pos, ...]]] = deque([(start, first[1], ())])
    while queue:
        here, budget, path = queue.popleft()
        for nxt in grid.neighbours(here):
            if grid.blocked_by_others and nxt in occupied:
                continue
            result = _enter(grid, allowance, budget, here, nxt)
            if isinstance(result, str) or (nxt, result) in seen:
                continue
            if goal(nxt):
                return (*path, nxt)
            seen.add((nxt, result))
            queue.append((nxt, result, (*path, nxt)))
    return None


def reachable(grid: Grid, start: Pos, allowance: Allowance, occupied: set[Pos]
              ) -> set[Pos]:
    """Every space a move within ``allowance`` can end on (the search of
    :func:`find_path` with no goal: bounded by the movement, not by the distances)."""
    first = (start, _start(allowance))
    seen = {first}
    queue: deque[tuple[Pos, _Budget]] = deque([first])
    while queue:
        here, budget = queue.popleft()
        for nxt in grid.neighbours(here):
            if grid.blocked_by_others and nxt in occupied:
                continue
            result = _enter(grid, allowance, budget, here, nxt)
            if isinstance(result, str) or (nxt, result) in seen:
                continue
            seen.add((nxt, result))
            queue.append((nxt, result))
    return {pos for pos, _ in seen}


def step_toward(grid: Grid, start: Pos, target: Pos, occupied: set[Pos]) -> Pos | None:
    """The free neighbouring space that brings ``start`` closest to ``target`` (None when
    already next to it or no such space)."""
    if grid.distance(start, target) <= 1:
        return None
    best = min((p for p in grid.neighbours(start)
                if not (grid.blocked_by_others and p in occupied)),
               key=lambda p: grid.distance(p, target), default=None)
    if best is None or grid.distance(best, target) >= grid.distance(start, target):
        return None
    return best
