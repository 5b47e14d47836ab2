"""Simulation speed, side by side in one run: raw numpy random integers per second, then
resolved attacks (actions) per second and fights per second for a tristat duel, the
genesys three-against-three fight and a fight of five or more of every other system
(with today's step-by-step reference from main beside them), what auto chose and its
cost against the best path, the c22 dash -n 200 auto against steps and the contest duel
with one and two jobs (wall time, the goal, and CPU time), on the fast path (exact
chain, vectorised), the sampled path (each rule sub-step from its cached exact
distribution) and step by step, with each path's peak memory (steps and sampled each run
in a fresh process; the fast path's figure is this process's peak, which includes the
steps of the probe).

The fast path is timed twice: cold (the chain is built as fights meet new states) and warm
(a second run of the same size, the chain already built, as in a designer's sweep).

Run: .venv/bin/python benchmarks/simulate.py [--fights N]
"""

from __future__ import annotations

import argparse
import math
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from fracas.analysis import paths
from fracas.analysis import simulate as sim
from fracas.analysis.workers import worker_pool
from fracas.encounter.engine import setup_from_scenario
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[1]
FIGHTS = {
    "tristat duel": ROOT / "examples" / "tristat" / "duel-fight.yaml",
    "genesys 3 vs 3": ROOT / "examples" / "genesys" / "three-vs-three-fight.yaml",
    "c22 6": ROOT / "examples" / "c22" / "deck-brawl-fight.yaml",
    "contest 5": ROOT / "examples" / "contest" / "gate-fight.yaml",
    "tristat 6": ROOT / "examples" / "tristat" / "warehouse-fight.yaml",
    "zamani 6": ROOT / "examples" / "zamani" / "river-crossing-fight.yaml",
}
#: Step by step as it was before this work: today's reference, measured on main at commit
#: cfa1ff2 on this machine (CPU seconds, the machine shared with other work): attacks/s and
#: fights/s. These are fixed figures; the "steps" rows below are measured in each run.
REFERENCE = {
    "tristat duel": (1_287.5, 59.80), "genesys 3 vs 3": (1_179.1, 29.54),
    "c22 6": (24.2, 1.92), "contest 5": (28.5, 4.59), "tristat 6": (122.3, 2.12),
    "zamani 6": (664.8, 10.80),
}
SMALL = {"c22 6": 8, "contest 5": 20, "tristat 6": 20}  # the slowest fights: fewer fights


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
    """(attacks/s, fights/s, CPU seconds) of ``n`` fights on ``method`` (CPU time: the
    machine is shared, wall time would measure the other work too)."""
    scenario = load_scenario(path)
    setup = setup_from_scenario(scenario)
    start = time.process_time()
    fights = sim.simulate(setup, scenario.roster, n, seed=1, method=method)  # type: ignore[arg-type]
    seconds = time.process_time() - start
    _NOTES[:] = list(fights.notes)
    actions = float(fights.actions.sum()) if fights.actions is not None else float("nan")
    return actions / seconds, n / seconds, seconds


_NOTES: list[str] = []


def _in_worker(args: tuple[Path, int, str]) -> tuple[float, float, float, float, list[str]]:
    rate, fps, secs = measure(*args)
    return rate, fps, secs, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, _NOTES


def cli_times(*argv: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system, with its worker processes) of one
    ``fracas`` command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "fracas", *argv], check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


DEFAULT_LIMIT = 120.0  # wall seconds one measurement may take (--limit); past it, stopped
LIMIT = DEFAULT_LIMIT


def measure_alone(path: Path, n: int, method: str
                  ) -> tuple[float, float, float, float, list[str]] | None:
    """``measure`` in a fresh process, with that process's peak memory (MB) at the end;
    None when it passed :data:`LIMIT` seconds (the process is stopped)."""
    pool = worker_pool(1)
    try:
        return pool.submit(_in_worker, (path, n, method)).result(timeout=LIMIT)
    except TimeoutError:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        return None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _stopped(name: str, method: str, n: int) -> None:
    print(f"{name:<15} {method:<12} {n:>8,} {'>' + format(LIMIT, '.0f'):>8}  stopped: "
          f"{n} fights took more than {LIMIT:.0f} s wall (--limit)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fights", type=int, default=100_000, help="fights on the fast path")
    parser.add_argument("--steps", type=int, default=60, help="fights step by step / sampled")
    parser.add_argument("--limit", type=float, default=DEFAULT_LIMIT,
                        help="wall seconds one measurement may take before it is stopped")
    args = parser.parse_args()
    global LIMIT
    LIMIT = args.limit
    raw, raw_one = raw_integers_per_second()
    print(f"numpy random integers, one core: {raw:,.0f}/s each with its own bound (the "
          f"reference below), {raw_one:,.0f}/s with one bound for all\n")
    print("times are CPU seconds; the machine is shared with other work, so figures are "
          "noisy.\n'steps (ref)' is today's step by step measured on main at cfa1ff2 (fixed "
          "figures); 'steps' is step by step measured now, in this run.\n")
    print(f"{'fight':<15} {'path':<12} {'fights':>8} {'CPU s':>8} {'attacks/s':>11} "
          f"{'fights/s':>9} {'vs raw':>7} {'peak MB':>8}  vs steps (ref)")
    for name, path in FIGHTS.items():
        n = SMALL.get(name, args.steps)
        ref_rate, ref_fights = REFERENCE[name]
        print(f"{name:<15} {'steps (ref)':<12} {'':>8} {'':>8} {ref_rate:>11,.0f} "
              f"{ref_fights:>9,.2f}")
        best = math.inf
        for method in ("steps", "sampled"):
            got = measure_alone(path, n, method)
            if got is None:
                _stopped(name, method, n)
                continue
            rate, fps, secs, mb, _ = got
            best = min(best, secs / n)
            print(f"{name:<15} {method:<12} {n:>8,} {secs:>8.2f} {rate:>11,.0f} {fps:>9,.2f} "
                  f"{rate / raw:>7.4f} {mb:>8.0f}  {rate / ref_rate:.2f}x (goal for sampled: "
                  f"{'0.1 of raw' if name == 'tristat duel' else '20x'})")
        got = measure_alone(path, n, "auto")
        if got is None:
            _stopped(name, "auto", n)
            print()
            continue
        rate, fps, secs, mb, notes = got
        print(f"{name:<15} {'auto':<12} {n:>8,} {secs:>8.2f} {rate:>11,.0f} {fps:>9,.2f} "
              f"{rate / raw:>7.4f} {mb:>8.0f}  {secs / (best * n):.2f}x the best path's time")
        print(f"{'':<15} {notes[0] if notes else ''}")
        if name == "tristat duel":
            paths.CHAINS.clear()
            cold = measure(path, args.fights, "fast")
            warm = measure(path, args.fights, "fast")
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            for label, (rate, fps, secs) in (("fast, cold", cold), ("fast, warm", warm)):
                print(f"{name:<15} {label:<12} {args.fights:>8,} {secs:>8.2f} {rate:>11,.0f} "
                      f"{fps:>9,.0f} {rate / raw:>7.4f} {peak:>8.0f}  {rate / ref_rate:,.0f}x "
                      f"(goal: 0.1 of raw = {0.1 * raw:,.0f}/s)")
        print()
    dash = str(ROOT / "examples" / "c22" / "dash-square-grid.yaml")
    for label, extra in (("auto", ()), ("--method steps", ("--method", "steps"))):
        wall, cpu = cli_times("simulate", dash, "-n", "200", "--json", *extra)
        print(f"c22 dash-square-grid -n 200, {label}: {wall:.1f} s wall, {cpu:.1f} CPU s "
              "(before: auto 12.9 s wall, steps 8.4 s)")
    duel = str(ROOT / "examples" / "contest" / "duel-fight.yaml")
    for jobs in ("1", "2"):
        wall, cpu = cli_times("simulate", duel, "-n", "20000", "--jobs", jobs, "--json")
        print(f"contest duel -n 20000 --jobs {jobs}: {wall:.1f} s wall, {cpu:.1f} CPU s "
              "(before: 39.2 s and 45.5 s wall; the goal: --jobs 2 faster in wall time on "
              "2 cores, when they are free)")


if __name__ == "__main__":
    main()
