"""Balance: the value of one scenario parameter that brings a side's win chance closest
to a target (``fracas balance FILE --vary PATH=LOW..HIGH --target SIDE=0.6``).

The parameter is named and set exactly as in a sweep (:mod:`fracas.analysis.sweep`:
``rin.skills.melee``, ``red.group_size``, ``gorr.weapons.knuckles.damage``) and each value
tried is a sweep point: its win chance is exact while the whole fight's chain stays under
the state budget (what ``fracas odds --fight`` computes), simulated past it with a 95 %
interval (seeded by the value's place in the range, so any number of processes or a Dask
cluster gives the same table).

The search reads the win chance as moving one way along the range (more skill, more
wins): it tries both ends, then, while values lie between the two that straddle the
target, three values evenly spread between them, and keeps the straddling pair. Every
value tried is kept, and the answer is the one whose win chance is closest to the target
(a tie goes to the lower value). When both ends fall on the same side of the target, the
target is out of reach within the range and the closer end is the answer. The number of
values tried per round does not depend on the processes, so the table does not either.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fracas.analysis.sweep import (
    SweepOverBudget,
    SweepSpec,
    Vary,
    check,
    evaluate_points,
)
from fracas.core.words import count
from fracas.errors import InputError

PER_ROUND = 3  # values tried between the straddling pair in each round


@dataclass(frozen=True)
class Target:
    """The side whose win chance is aimed at, and the chance."""

    side: str
    chance: float


def parse_target(text: str) -> Target:
    """``SIDE=0.6`` (or ``SIDE=60%``)."""
    side, sep, value = text.partition("=")
    side, value = side.strip(), value.strip()
    allowed = "SIDE=CHANCE, a chance from 0 to 1 (0.6) or a percentage (60%)"
    if not sep or not side or not value:
        raise InputError(f"{text!r} names no side and chance", path="--target",
                         allowed=allowed)
    try:
        chance = float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        raise InputError(f"{value!r} is not a chance", path="--target",
                         allowed=allowed) from None
    if not 0 <= chance <= 1:
        raise InputError(f"a chance of {value}", path="--target", allowed=allowed)
    return Target(side, chance)


def check_range(vary: Vary) -> None:
    """Balance varies whole numbers, in increasing order (``LOW..HIGH[..STEP]``)."""
    values = vary.values
    if (not all(isinstance(v, int) and not isinstance(v, bool) for v in values)
            or list(values) != sorted(set(values))):
        raise InputError(f"{vary.path}: the values {', '.join(map(str, values))} are not a "
                         "range of whole numbers", path="--vary",
                         allowed="PATH=LOW..HIGH or PATH=LOW..HIGH..STEP")
    if len(values) < 2:
        raise InputError(f"{vary.path}: one value leaves nothing to choose", path="--vary",
                         allowed="PATH=LOW..HIGH with LOW < HIGH")


@dataclass
class BalanceResult:
    """The values tried, in increasing order, and the one closest to the target."""

    vary: Vary
    target: Target
    points: list[dict[str, Any]]  # each a sweep point: index, values, value, method, ...
    best: dict[str, Any]
    reachable: bool
    engine: str = "local"

    def value_of(self, point: dict[str, Any]) -> Any:
        return point["values"][self.vary.path]

    def to_json(self) -> dict[str, Any]:
        best = self.best
        return {"vary": self.vary.path, "range": [self.vary.values[0], self.vary.values[-1]],
                "side": self.target.side, "target": self.target.chance,
                "best": {"value": self.value_of(best), "win_probability": best["value"],
                         **{k: best[k] for k in ("exact", "ci95") if k in best},
                         "method": best["method"]},
                "reachable": self.reachable, "engine": self.engine,
                "tried": [{"value": self.value_of(p), "win_probability": p["value"],
                           **{k: p[k] for k in ("exact", "ci95") if k in p},
                           "method": p["method"]} for p in self.points]}


def _distance(point: dict[str, Any], target: float) -> float:
    return abs(float(point["value"]) - target)


def _above(point: dict[str, Any], target: Target) -> bool:
    exact = point.get("exact")
    if exact is not None:  # compare exactly where the figure is exact
        return Fraction(exact) >= Fraction(str(target.chance))
    return float(point["value"]) >= target.chance


def _spread(low: int, high: int, count: int) -> list[int]:
    """Up to ``count`` indices strictly between ``low`` and ``high``, evenly spread."""
    inside = high - low - 1
    if inside <= count:
        return list(range(low + 1, high))
    return sorted({low + round((high - low) * (k + 1) / (count + 1)) for k in range(count)})


def run_balance(spec: SweepSpec, target: Target, jobs: int = 1,
                scheduler: str | None = None,
                progress: Callable[[int], None] | None = None) -> BalanceResult:
    """Search the one varied value of ``spec`` (a win-probability spec of ``target.side``)
    for the win chance closest to ``target.chance``."""
    (vary,) = spec.varies
    check_range(vary)
    try:
        check(spec)
    except InputError as err:
        if err.path != "--side":
            raise
        raise InputError(err.message, file=err.file, path="--target",
                         allowed=err.allowed) from None
    values = vary.values
    tried: dict[int, dict[str, Any]] = {}
    pool = None
    if jobs > 1 and not scheduler:
        from fracas.analysis.workers import worker_pool

        pool = worker_pool(jobs)

    def evaluate(indices: list[int]) -> None:
        fresh = [i for i in indices if i not in tried]
        finished: list[dict[str, Any]] = []
        try:
            points = evaluate_points(spec, [(i, (values[i],)) for i in fresh], jobs,
                                     scheduler, progress, pool, finished)
        except SweepOverBudget:  # the values finished in time still count as tried
            tried.update({int(p["index"]): p for p in finished if p.get("value") is not None})
            raise
        for point in points:
            if point.get("value") is None:
                raise InputError(f"at {vary.path}={values[point['index']]}: "
                                 f"{point.get('error')}", path="--vary",
                                 allowed="a range where every value makes a valid scenario")
            tried[int(point["index"])] = point

    spec = spec.started()
    try:
        try:
            low, high = 0, len(values) - 1
            evaluate([low, high])
            reachable = _above(tried[low], target) != _above(tried[high], target)
            while reachable and high - low > 1:
                evaluate(_spread(low, high, PER_ROUND))
                inside = sorted(i for i in tried if low <= i <= high)
                for a, b in itertools.pairwise(inside):
                    if _above(tried[a], target) != _above(tried[b], target):
                        low, high = a, b
                        break
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
    except SweepOverBudget as err:
        best = _closest(tried, target)
        so_far = ("nothing was finished" if best is None else
                  f"closest so far: {vary.path}={values[best['index']]} gives "
                  f"{target.side} {float(best['value']):.2%}")
        raise InputError(f"the balance passed its time budget of {err.seconds:g} s after "
                         f"{count(len(tried), 'value')} tried ({so_far})", path="--max-seconds",
                         allowed="a larger --max-seconds, a narrower range, or a smaller "
                         "--max-states or --fights") from None
    best = _closest(tried, target)
    assert best is not None
    points = [tried[i] for i in sorted(tried)]
    return BalanceResult(vary, target, points, best, reachable,
                         "dask" if scheduler else "local")


def _closest(tried: dict[int, dict[str, Any]], target: Target) -> dict[str, Any] | None:
    if not tried:
        return None
    return min((tried[i] for i in sorted(tried)), key=lambda p: _distance(p, target.chance))
