"""Issue 39's goals side by side in one run: workers that help, an auto that pays.

For every example fight (``examples/*/*-fight.yaml``), ``fracas simulate FILE -n N --seed 1
--json`` is run as a fresh process four ways: ``--method auto`` (which says the path it
chose), that path named outright, and that path with ``--jobs 1`` and ``--jobs 2``. Printed
per fight: wall and CPU seconds (CPU of the process and its workers), ``auto`` against its
path (goal: at most 1.10x), and ``--jobs 2`` against ``--jobs 1`` in wall time (goal: never
slower; the c22 boarding fight at most 0.65x on an otherwise idle machine). The four JSON
outputs must be the same (auto, its path and any jobs play the same fights).

Wall time on this machine is noisy (the same run varies by 30 % from minute to minute):
the four runs of a fight are made in turn, as one round (every other round in the other
order), and a fight whose round took under :data:`SHORT` seconds gets :data:`ROUNDS` rounds
(``--rounds K``: K rounds of every fight). Printed are the medians of the runs'
seconds and the medians of the rounds' ratios (each ratio paired within its round). The
load average before and after is printed.

Two figures steady on a noisy machine stand beside them:
* **thrown away**: auto's trials that the chosen path does not keep, in CPU seconds,
  timed inside one process (its own, fresh, per fight: ``--trials FILE``): the choice's
  whole time less the trial the path keeps (the first fights step by step for steps, the
  chain's probe for fast, the trial halves for sampled); and that as a share of the path's
  CPU seconds. This is what auto costs beyond its path, free of the noise of whole runs.
* **same run**: the path's run and its ``--jobs 1`` run are the same command (``--jobs``
  is 1 by default); the median of their CPU ratio shows this machine's noise in that
  fight's rounds.

Run: .venv/bin/python benchmarks/designer.py [-n N] [--only WORD] [--rounds K] [--quick]
(--quick: 20 fights of the two duels, to show that it runs)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
AUTO_GOAL, JOBS_GOAL, BOARDING_GOAL = 1.10, 1.0, 0.65
SHORT, ROUNDS = 20.0, 5  # a round of a fight under SHORT seconds: ROUNDS rounds of it


def run(path: Path, n: int, *extra: str) -> tuple[float, float, dict[str, object]]:
    """(wall s, CPU s with workers, the JSON) of one ``fracas simulate`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "fracas", "simulate", str(path), "-n", str(n),
                           "--seed", "1", "--json", *extra], capture_output=True, text=True,
                          cwd=ROOT, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"fracas simulate {path} {' '.join(extra)}: {done.stderr[-600:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(done.stdout)


def chosen_path(data: dict[str, object]) -> str:
    notes = " ".join(str(n) for n in data.get("notes", []) or [])  # type: ignore[attr-defined]
    for path in ("fast", "sampled", "steps"):
        if f"chose the {path} path" in notes:
            return path
    return str(data.get("method", "steps"))


def trials(path: Path, n: int) -> None:
    """In this process: auto's choice for ``path`` and ``n`` fights (seed 1), printed as
    JSON: the path, the choice's CPU seconds, and those of the trial the path keeps."""
    from fracas.analysis import auto
    from fracas.encounter.engine import setup_from_scenario
    from fracas.registry.scenarios import load_scenario

    scenario = load_scenario(path)
    setup = setup_from_scenario(scenario)
    spent: dict[str, float] = {}

    def timed(name: str, plain: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return plain(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.process_time() - start
        return call

    for name in ("steps_chunk", "probe", "sampled_chunk"):
        setattr(auto, name, timed(name, getattr(auto, name)))
    start = time.process_time()
    choice = auto.choose(setup, scenario.roster, 1, n)
    whole = time.process_time() - start
    kept = {"steps": "steps_chunk", "fast": "probe", "sampled": "sampled_chunk"}[choice.method]
    print(json.dumps({"path": choice.method, "whole": whole, "kept": spent.get(kept, 0.0)}))


def thrown_away(path: Path, n: int) -> tuple[str, float]:
    """(the path auto chose, the CPU seconds of its trials that path does not keep), timed
    in a fresh process (:func:`trials`)."""
    done = subprocess.run([sys.executable, __file__, "--trials", str(path), "-n", str(n)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode != 0:
        raise SystemExit(f"auto's trials of {path}: {done.stderr[-600:]}")
    data = json.loads(done.stdout)
    return str(data["path"]), float(data["whole"]) - float(data["kept"])


def same_fights(a: dict[str, object], b: dict[str, object]) -> bool:
    keep = ("notes", "method", "seconds")
    return {k: v for k, v in a.items() if k not in keep} == {
        k: v for k, v in b.items() if k not in keep}


Run = tuple[float, float]  # wall s, CPU s


def one_round(path: Path, n: int, method: str | None = None, turn: int = 0
              ) -> tuple[str, Run, Run, Run, Run, bool]:
    """One round of a fight, its four runs in turn: auto, the path auto chose (``method``
    if known already), that path with ``--jobs 1`` and ``--jobs 2``; and whether all four
    played the same fights. An odd ``turn`` runs each pair the other way round (the path
    before auto, ``--jobs 2`` before ``--jobs 1``), so that neither always runs second."""
    if turn % 2:
        assert method is not None
        p_wall, p_cpu, p_json = run(path, n, "--method", method)
        a_wall, a_cpu, a_json = run(path, n)
    else:
        a_wall, a_cpu, a_json = run(path, n)
        method = method or chosen_path(a_json)
        p_wall, p_cpu, p_json = run(path, n, "--method", method)
    ways = ["2", "1"] if turn % 2 else ["1", "2"]
    done = {way: run(path, n, "--method", method, "--jobs", way) for way in ways}
    (one_wall, one_cpu, one_json), (two_wall, two_cpu, two_json) = done["1"], done["2"]
    same = all(same_fights(a_json, o) for o in (p_json, one_json, two_json))
    return method, (a_wall, a_cpu), (p_wall, p_cpu), (one_wall, one_cpu), (two_wall, two_cpu), same


def _cell(runs: list[Run]) -> str:
    """The median wall / CPU seconds of a way's runs."""
    return (f"{statistics.median(w for w, _ in runs):>6.1f}/"
            f"{statistics.median(c for _, c in runs):<6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=2000, help="fights per run (default 2,000)")
    parser.add_argument("--only", help="only the fights whose name has this word")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, help=f"rounds of every fight (default: {ROUNDS} "
                        f"for a fight whose round takes under {SHORT:g} s, else 1)")
    parser.add_argument("--trials", type=Path, help=argparse.SUPPRESS)  # one fight's, here
    args = parser.parse_args()
    if args.trials:
        trials(args.trials, args.n)
        return
    fights = sorted((ROOT / "examples").glob("*/*-fight.yaml"))
    if args.quick:
        args.n = 20
        fights = [p for p in fights if p.name == "duel-fight.yaml"][:2]
    if args.only:
        fights = [p for p in fights if args.only in str(p)]
    print(f"load average before: {os.getloadavg()[0]:.1f} (2 cores)")
    print(f"{args.n:,} fights each; seconds wall / CPU (the process and its workers)")
    print(f"{'fight':<30} {'path':<8} {'rounds':>6} {'auto':>13} {'path':>13} {'auto/path':>9} "
          f"{'jobs 1':>13} {'jobs 2':>13} {'2/1 wall':>8}  same fights  {'thrown away':>16}"
          f"  {'same run':>8}", flush=True)
    met, most_lost = True, 0.0
    for path in fights:
        name = f"{path.parent.name}/{path.stem}"
        rounds = [one_round(path, args.n)]
        more = args.rounds or (ROUNDS if sum(w for w, _ in rounds[0][1:5]) < SHORT else 1)
        if not args.quick:
            rounds += [one_round(path, args.n, rounds[0][0], turn) for turn in range(1, more)]
        method = rounds[0][0]
        runs: list[list[Run]] = [[r[1] for r in rounds], [r[2] for r in rounds],
                                 [r[3] for r in rounds], [r[4] for r in rounds]]
        # auto, its path, jobs 1, jobs 2
        auto_ratio = statistics.median(r[1][1] / r[2][1] for r in rounds)
        jobs_ratio = statistics.median(r[4][0] / r[3][0] for r in rounds)
        goal = BOARDING_GOAL if "boarding" in name else JOBS_GOAL
        same = all(r[5] for r in rounds)
        met = met and same and auto_ratio <= AUTO_GOAL and jobs_ratio <= goal
        chosen, lost = thrown_away(path, args.n)
        lost_share = lost / statistics.median(c for _, c in runs[1])
        noise = statistics.median(r[2][1] / r[3][1] for r in rounds)
        most_lost = max(most_lost, lost_share)
        print(f"{name:<30} {method:<8} {len(rounds):>6} {_cell(runs[0])} {_cell(runs[1])}"
              f" {auto_ratio:>8.2f}x {_cell(runs[2])} {_cell(runs[3])} {jobs_ratio:>7.2f}x  "
              f"{'yes' if same else 'NO':<11}  {lost:>6.2f} s {lost_share:>6.1%}"
              f"{'' if chosen == method else ' (' + chosen + '?)'}  {noise:>7.2f}x",
              flush=True)
    print(f"goals: auto/path (CPU) at most {AUTO_GOAL:.2f}x; jobs 2/jobs 1 (wall) at most "
          f"{JOBS_GOAL:.2f}x, c22 boarding {BOARDING_GOAL:.2f}x, on an otherwise idle machine")
    print(f"auto's trials thrown away: at most {most_lost:.1%} of its path's CPU seconds "
          f"(goal: at most {AUTO_GOAL - 1:.0%})")
    print(f"load average after: {os.getloadavg()[0]:.1f}; every goal met: "
          f"{'yes' if met else 'no'}")


if __name__ == "__main__":
    main()
