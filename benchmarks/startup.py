"""Start-up and per-command latency, side by side with the goals, in one run.

Each command is run as a fresh process (best wall time of ``--repeat`` runs), next to
``python -c pass`` measured in the same run (the floor every command pays):

* ``fracas --help``: goal under 0.3 s wall;
* ``fracas attack examples/tristat/vampire.yaml``: goal under 0.5 s wall;
* ``fracas odds`` on every attack example (each examples/<system>/*.yaml with an
  ``attack:``): goal under 1 s each, start-up included;
* Genesys pools at the limit: a plain ``fracas roll`` (goal: at once, taken as the attack's
  0.5 s) and ``fracas roll --odds --json`` (goal under 1 s) of 100 proficiency, of 100
  dice spread over the six kinds and of the worst case, 100 of every kind (600 dice).

Wall time on a machine shared with other work is noisy: the CPU seconds (user + system)
are printed beside it, and the floor shows how loaded the machine was.

fracas's own modules are compiled to bytecode first, as an installed package's are (pip
compiles them when it installs): otherwise, where PYTHONDONTWRITEBYTECODE is set, every
run would compile them again (about 0.1 s) and time what no user waits for.

Run: .venv/bin/python benchmarks/startup.py [--repeat N] [--only WORD] [--quick]
(--quick: one run each of --help and the attack)
"""

from __future__ import annotations

import argparse
import compileall
import resource
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
FRACAS = [sys.executable, "-m", "fracas"]
LIMIT = "100P100A100B-100C100D100S"  # the pool limit is 100 dice of each kind
SPREAD = "17P17A16B-17C17D16S"  # 100 dice spread over the kinds


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
    """Every example scenario with an attack (fights have none)."""
    found = []
    for path in sorted(ROOT.glob("examples/*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("attack"):
            found.append(path)
    return found


def rows() -> list[tuple[str, list[str], float]]:
    out: list[tuple[str, list[str], float]] = [
        ("fracas --help", ["--help"], 0.3),
        ("fracas attack examples/tristat/vampire.yaml",
         ["attack", "examples/tristat/vampire.yaml"], 0.5),
    ]
    for pool in ("100P", SPREAD, LIMIT):
        out.append((f"fracas roll {pool}", ["roll", pool], 0.5))
        out.append((f"fracas roll {pool} --odds --json", ["roll", pool, "--odds", "--json"],
                    1.0))
    out += [(f"fracas odds {p.relative_to(ROOT)}", ["odds", str(p.relative_to(ROOT))], 1.0)
            for p in attack_examples()]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", help="Only the commands whose label has this word.")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    quick_rows = 2 if args.quick else None
    if args.quick:
        args.repeat = 1
    compileall.compile_dir(ROOT / "src" / "fracas", quiet=1)
    floor, _, floor_cpu = wall([sys.executable, "-c", "pass"], args.repeat)
    print(f"python -c pass: {floor:.3f} s wall, {floor_cpu:.3f} s CPU (the floor; best of "
          f"{args.repeat})\n")
    print(f"{'command':<62}{'wall s':>8}{'- floor':>9}{'CPU s':>8}{'goal s':>8}  met (wall)")
    missed = []
    for label, argv, goal in rows()[:quick_rows]:
        if args.only and args.only not in label:
            continue
        seconds, size, cpu = wall(FRACAS + argv, args.repeat)
        met = "yes" if seconds < goal else "NO"
        if met == "NO":
            missed.append(f"{label} ({seconds:.2f} s, {cpu:.2f} s CPU)")
        extra = f" ({size / 1024:.0f} KiB out)" if "--json" in argv else ""
        print(f"{label + extra:<62}{seconds:>8.3f}{seconds - floor:>9.3f}{cpu:>8.3f}"
              f"{goal:>8.1f}  {met}", flush=True)
    print("\nGoals missed:\n  " + "\n  ".join(missed) if missed else "\nEvery goal met.")


if __name__ == "__main__":
    main()
