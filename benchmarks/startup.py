"""Start-up and per-command latency, side by side with the goals, in one run.

Each command is run as a fresh process (best wall time of ``--repeat`` runs), next to
``python -c pass`` measured in the same run (the floor every command pays):

* ``fracas --help``: goal under 0.3 s wall;
* ``fracas attack examples/tristat/vampire.yaml``: goal under 0.5 s wall;
* ``fracas odds`` on every attack example: goal under 1 s each, start-up included;
* ``fracas roll 100P`` and ``fracas roll 20P-20C --odds --json`` (large pools).

Run: .venv/bin/python benchmarks/startup.py [--repeat N]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRACAS = [sys.executable, "-m", "fracas"]


def wall(cmd: list[str], repeat: int) -> tuple[float, int, float]:
    """Best wall seconds of ``repeat`` runs, the output's size in bytes, and the best CPU
    seconds (user + system: less sensitive than wall time to a busy machine)."""
    best, size, cpu = float("inf"), 0, float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False)
        best = min(best, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        size = len(out.stdout)
        if out.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {out.stderr.decode()[-400:]}")
    return best, size, cpu


def attack_examples() -> list[Path]:
    return sorted(p for p in ROOT.glob("examples/*/*.yaml") if "fight" not in p.stem)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    floor, _, floor_cpu = wall([sys.executable, "-c", "pass"], args.repeat)
    print(f"python -c pass: {floor:.3f} s wall, {floor_cpu:.3f} s CPU (the floor; best of "
          f"{args.repeat})\n")
    print(f"{'command':<58}{'wall s':>8}{'- floor':>9}{'CPU s':>8}{'goal s':>8}  met (wall)")
    rows: list[tuple[str, list[str], float | None]] = [
        ("fracas --help", ["--help"], 0.3),
        ("fracas attack examples/tristat/vampire.yaml",
         ["attack", "examples/tristat/vampire.yaml"], 0.5),
        ("fracas roll 100P", ["roll", "100P"], None),
        ("fracas roll 20P-20C --odds --json", ["roll", "20P-20C", "--odds", "--json"], 1.0),
    ]
    rows += [(f"fracas odds {p.relative_to(ROOT)}", ["odds", str(p.relative_to(ROOT))], 1.0)
             for p in attack_examples()]
    missed = []
    for label, argv, goal in rows:
        seconds, size, cpu = wall(FRACAS + argv, args.repeat)
        met = "" if goal is None else ("yes" if seconds < goal else "NO")
        if met == "NO":
            missed.append(label)
        extra = f" ({size / 1024:.0f} KiB out)" if "--json" in argv else ""
        print(f"{label + extra:<58}{seconds:>8.3f}{seconds - floor:>9.3f}{cpu:>8.3f}"
              f"{'' if goal is None else f'{goal:.1f}':>8}  {met}")
    print(f"\nGoals missed: {', '.join(missed)}" if missed else "\nEvery goal met.")


if __name__ == "__main__":
    main()
