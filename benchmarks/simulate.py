"""Simulation speed, side by side in one run: raw numpy random integers per second, then
resolved attacks (actions) per second and fights per second for a tristat duel and a
genesys three-against-three fight, on the fast path (exact chain, vectorised), the sampled
path (each rule sub-step from its cached exact distribution) and step by step, with each
path's peak memory (steps and sampled each run in a fresh process; the fast path's figure is
this process's peak, which includes the steps of the probe).

The fast path is timed twice: cold (the chain is built as fights meet new states) and warm
(a second run of the same size, the chain already built, as in a designer's sweep).

Run: .venv/bin/python benchmarks/simulate.py [--fights N]
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import numpy as np

from fracas.analysis import simulate as sim
from fracas.analysis.workers import worker_pool
from fracas.core.scenario import load_scenario
from fracas.encounter.engine import setup_from_scenario

ROOT = Path(__file__).resolve().parents[1]
FIGHTS = {
    "tristat duel": ROOT / "examples" / "tristat" / "duel-fight.yaml",
    "genesys 3 vs 3": ROOT / "examples" / "genesys" / "three-vs-three-fight.yaml",
}


def raw_integers_per_second(n: int = 10_000_000) -> tuple[float, float]:
    """Raw numpy random integers per second: (each with its own bound, as the fast path
    draws them, one per attack from that state's total; one bound for all), best of 3."""
    rng = np.random.default_rng(0)
    bounds = rng.integers(1, 10_000, size=n)
    own = one = 0.0
    for _ in range(3):
        start = time.perf_counter()
        rng.integers(0, bounds)
        own = max(own, n / (time.perf_counter() - start))
        start = time.perf_counter()
        rng.integers(0, 1000, size=n)
        one = max(one, n / (time.perf_counter() - start))
    return own, one


def measure(path: Path, n: int, method: str) -> tuple[float, float, float]:
    scenario = load_scenario(path)
    setup = setup_from_scenario(scenario)
    start = time.perf_counter()
    fights = sim.simulate(setup, scenario.roster, n, seed=1, method=method)  # type: ignore[arg-type]
    seconds = time.perf_counter() - start
    actions = float(fights.actions.sum()) if fights.actions is not None else float("nan")
    return actions / seconds, n / seconds, seconds


def _in_worker(args: tuple[Path, int, str]) -> tuple[float, float, float, float]:
    rate, fps, secs = measure(*args)
    return rate, fps, secs, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_alone(path: Path, n: int, method: str) -> tuple[float, float, float, float]:
    """``measure`` in a fresh process, with that process's peak memory (MB) at the end."""
    with worker_pool(1) as pool:
        return pool.submit(_in_worker, (path, n, method)).result()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fights", type=int, default=1_000_000, help="fights on the fast path")
    parser.add_argument("--steps", type=int, default=300, help="fights step by step")
    args = parser.parse_args()
    raw, raw_one = raw_integers_per_second()
    print(f"numpy random integers, one core: {raw:,.0f}/s each with its own bound (the "
          f"reference below), {raw_one:,.0f}/s with one bound for all\n")
    print(f"{'fight':<16} {'path':<12} {'fights':>10} {'seconds':>9} {'attacks/s':>14} "
          f"{'fights/s':>12} {'vs raw':>8} {'peak MB':>8}")
    for name, path in FIGHTS.items():
        if not path.exists():
            print(f"{name:<16} (no example at {path.relative_to(ROOT)})")
            continue
        steps_rate, steps_fights, steps_s, steps_mb = measure_alone(path, args.steps, "steps")
        print(f"{name:<16} {'steps':<12} {args.steps:>10,} {steps_s:>9.2f} {steps_rate:>14,.0f} "
              f"{steps_fights:>12,.0f} {steps_rate / raw:>8.3f} {steps_mb:>8.0f}")
        s_rate, s_fights, s_s, s_mb = measure_alone(path, args.steps, "sampled")
        print(f"{name:<16} {'sampled':<12} {args.steps:>10,} {s_s:>9.2f} {s_rate:>14,.0f} "
              f"{s_fights:>12,.0f} {s_rate / raw:>8.3f} {s_mb:>8.0f}   "
              f"{s_rate / steps_rate:.2f}x step by step (goal 20x)")
        scenario = load_scenario(path)
        sim._CHAINS.clear()
        verdict = sim.probe(setup_from_scenario(scenario), scenario.roster, 1, args.fights)
        if not verdict.fast:
            print(f"{name:<16} {'fast':<12} not taken: {verdict.reason} (auto plays it step "
                  "by step)\n")
            continue
        sim._CHAINS.clear()
        cold = measure(path, args.fights, "fast")
        warm = measure(path, args.fights, "fast")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        for label, (rate, fps, secs) in (("fast, cold", cold), ("fast, warm", warm)):
            print(f"{name:<16} {label:<12} {args.fights:>10,} {secs:>9.2f} {rate:>14,.0f} "
                  f"{fps:>12,.0f} {rate / raw:>8.3f} {peak:>8.0f}")
        print(f"{'':<16} fast / step by step: {cold[0] / steps_rate:,.0f}x cold, "
              f"{warm[0] / steps_rate:,.0f}x warm; goal: 0.1 of raw = {0.1 * raw:,.0f}/s and "
              "100x step by step\n")


if __name__ == "__main__":
    main()
