"""Exact Genesys pool distributions: fracas's dense convolution side by side with icepool.

Pools: (a) PAA vs DD; (b) PPPAAB vs CCDS; (c) 5P 5A 2B vs 4C 2D 2S. Each is the joint
distribution of (net successes, net advantage, triumphs, despairs), computed cold
(caches cleared). icepool (a benchmark-only extra: ``pip install .[bench]``) is run
with two encodings of the same faces:

* fastest: each face packed into one integer (the four numbers as digits of base
  256, balanced so that negative successes and advantage survive), summed with
  ``n @ die``, then unpacked;
* natural: each face an ``icepool.Vector`` of the four numbers, summed the same way.

The distributions are checked to be identical (exact fractions), then the times and
the ratios are printed: for fracas's count table, for the ``Distribution`` the rules roll
(``pool_distribution``: packed, its results made when read) and for that Distribution
with every result read (as the exact roller does when it branches on each). Goal: pool
(c) as the rules' Distribution at least 30x faster than icepool's fastest.

Then the large pools, against the issue's goals: a plain roll of 100P and of a pool at the
limit (100 of each die) rolled die by die (goal: at once), and ``--odds`` (P(success),
marginals, triumph and despair chances) of 20P-20C, of 100 dice spread over the kinds and
of the pool at the limit (goal: under a second), with the size of its JSON (the joint
used to make it 50 MB).

Run: .venv/bin/python benchmarks/genesys_pools.py [--quick]   (--quick skips the
natural encoding of pool (c), which takes seconds)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from fracas.systems.genesys.dice import DIE_ORDER, PoolSpec, die_faces
from fracas.systems.genesys.pool import clear_caches, pool_distribution, pool_table

POOLS = {"(a) PAA vs DD": "PAA-DD", "(b) PPPAAB vs CCDS": "PPPAAB-CCDS",
         "(c) 5P 5A 2B vs 4C 2D 2S": "5P5A2B-4C2D2S"}
GOAL = 30.0
SPREAD = "17P17A16B-17C17D16S"  # a pool of 100 dice spread over the six kinds
BASE, HALF = 256, 128

Key = tuple[int, int, int, int]


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def fracas_table(spec: PoolSpec) -> dict[Key, Fraction]:
    pool_table.cache_clear()
    table = pool_table(spec)
    return {k: Fraction(w, table.total) for k, w in table.items()}


def fracas_cold(spec: PoolSpec) -> Callable[[], Any]:
    def run() -> Any:
        pool_table.cache_clear()
        return pool_table(spec)
    return run


def fracas_distribution(spec: PoolSpec, read_all: bool = False) -> Callable[[], Any]:
    """The Distribution the rules roll, cold; ``read_all``: then every result read."""
    def run() -> Any:
        clear_caches()
        dist = pool_distribution(spec)
        if read_all:
            for _ in dist.items():
                pass
        return dist
    return run


def _vector(face: str) -> Key:
    return die_faces()["ability"].vector(face)


def _pack(v: Key) -> int:
    s, a, t, d = v
    return ((s * BASE + a) * BASE + t) * BASE + d


def _unpack(x: int) -> Key:
    digits = []
    for _ in range(3):
        r = (x + HALF) % BASE - HALF
        digits.append(r)
        x = (x - r) // BASE
    d, t, a = digits
    return (x, a, t, d)


def icepool_run(spec: PoolSpec, encoding: str) -> Callable[[], Any]:
    import icepool

    def run() -> Any:
        total = None
        for name in DIE_ORDER:
            n = spec.count(name)
            if not n:
                continue
            faces = die_faces()[name].faces
            if encoding == "fastest":
                die = icepool.Die([_pack(_vector(f)) for f in faces])
            else:
                die = icepool.Die([icepool.Vector(_vector(f)) for f in faces])
            part = n @ die
            total = part if total is None else total + part
        return total
    return run


def icepool_dict(die: Any, encoding: str) -> dict[Key, Fraction]:
    denominator = die.denominator()
    out: dict[Key, Fraction] = {}
    for outcome, quantity in die.items():
        key = _unpack(outcome) if encoding == "fastest" else tuple(outcome)
        out[key] = out.get(key, Fraction(0)) + Fraction(quantity, denominator)
    return out


def main() -> None:
    quick = "--quick" in sys.argv
    try:
        import icepool
        version = icepool.__version__
    except ImportError:
        icepool = None
        version = ""
    print("Genesys pools: exact joint distribution of (net successes, net advantage, "
          "triumphs, despairs)")
    if icepool is None:
        print("icepool is not installed (pip install '.[bench]'): fracas times only.")
    else:
        print(f"icepool {version}: 'fastest' = packed integer faces, 'natural' = Vector faces")
    print()
    header = f"{'pool':<26}{'results':>8}{'table':>9}{'Distribution':>14}{'all read':>10}"
    if icepool is not None:
        header += (f"{'icepool fastest':>17}{'natural':>9}{'fastest/Distribution':>22}"
                   f"{'fastest/table':>15}")
    header += "  identical"
    print(header)
    print("-" * len(header))
    goal_met = None
    for label, text in POOLS.items():
        spec = PoolSpec.parse(text)
        t_table, _ = timed(fracas_cold(spec), 20)
        t_dist, dist = timed(fracas_distribution(spec), 20)
        t_all, _ = timed(fracas_distribution(spec, read_all=True), 5)
        ours = fracas_table(spec)
        same = {r.key(): p for r, p in dist.probabilities().items()} == ours
        row = (f"{label:<26}{len(ours):>8}{t_table * 1e3:>7.2f}ms{t_dist * 1e3:>12.2f}ms"
               f"{t_all * 1e3:>8.1f}ms")
        if icepool is None:
            print(f"{row}  {'yes' if same else 'NO'}")
            continue
        t_fast, die_fast = timed(icepool_run(spec, "fastest"), 3)
        same = same and icepool_dict(die_fast, "fastest") == ours
        skip_natural = quick and text == "5P5A2B-4C2D2S"
        if skip_natural:
            nat = "skipped"
        else:
            t_nat, die_nat = timed(icepool_run(spec, "natural"), 1)
            same = same and icepool_dict(die_nat, "natural") == ours
            nat = f"{t_nat * 1e3:.0f}ms"
        ratio_dist, ratio_table = t_fast / t_dist, t_fast / t_table
        print(f"{row}{t_fast * 1e3:>15.1f}ms{nat:>9}{ratio_dist:>21.0f}x{ratio_table:>14.0f}x"
              f"  {'yes' if same else 'NO'}")
        if not same:
            raise SystemExit(f"{label}: the distributions differ")
        if text == "5P5A2B-4C2D2S":
            goal_met = ratio_dist >= GOAL
    print()
    print("table: dense convolution into exact integer counts; Distribution: the "
          "Distribution of PoolResult values the rules roll, built from the table (packed: "
          "each result made when first read); all read: that Distribution with every "
          "result read, as the exact roller reads them when it branches on each.")
    if goal_met is not None:
        print(f"Goal (pool (c) as the rules' Distribution at least {GOAL:.0f}x faster than "
              f"icepool's fastest encoding): {'met' if goal_met else 'NOT met'}.")


def large_pools() -> None:
    import json

    import numpy as np

    from fracas.systems.genesys.dice import MAX_DICE
    from fracas.systems.genesys.pool import GenesysPool, pool_marginals
    from fracas.systems.genesys.roll import parse_pool

    limit = (f"{MAX_DICE}P{MAX_DICE}A{MAX_DICE}B-{MAX_DICE}C{MAX_DICE}D{MAX_DICE}S")
    rng = np.random.default_rng(0)
    print()
    print(f"{'large pool':<34}{'what':<26}{'seconds':>10}{'goal':>8}  met")
    for text in ("100P", limit):
        pool = GenesysPool(PoolSpec.parse(text))

        def one_roll(pool: GenesysPool = pool) -> Any:
            return pool.sample(rng)
        t, _ = timed(one_roll, 5)
        print(f"{text:<34}{'one roll':<26}{t:>10.5f}{'0.1':>8}  {'yes' if t < 0.1 else 'NO'}")
    for text in ("20P-20C", SPREAD, limit):
        roll = parse_pool(text)
        assert roll is not None
        spec = roll.spec

        def odds(roll: Any = roll, spec: PoolSpec = spec) -> Any:
            pool_marginals.cache_clear()
            return roll.odds_json()
        t, data = timed(odds, 3)
        size = len(json.dumps(data, indent=2))
        what = f"--odds ({size / 1024:.0f} KiB JSON)"
        print(f"{text:<34}{what:<26}{t:>10.3f}{'1.0':>8}  {'yes' if t < 1 else 'NO'}")


if __name__ == "__main__":
    main()
    large_pools()
