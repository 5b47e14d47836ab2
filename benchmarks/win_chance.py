"""Who's winning, timed (issue 37): for every example fight, at its start and mid-fight,
on one core, the time to a first figure within +-5 points (95 %), to +-2 points, and to
the exact figure where the chain is small.

The figures are those a live view shows (:func:`fracas.analysis.winning.refine`: a first
estimate, then narrower ones, then the exact chain where it fits). Three rows a fight:
``start`` and ``mid`` from cold memos (:func:`fracas.analysis.paths.forget_all`: as a
freshly started process), and ``mid/live``: the mid-fight point with the memos the start's
figures left (as the tracker's worker holds them when the fight has moved on). The
mid-fight point is the end of the middle whole turn of the fight played by
``fracas fight --seed 1`` (read back from its log, as ``--at`` does).
Times are CPU seconds of this process (less sensitive than wall time to a shared
machine), with the wall time beside them. Goals: +-5 points in 1 s, +-2 points in 5 s.
Where the first figure already took longer than :data:`SKIP_AFTER` CPU seconds, the
+-2 figure (six times the fights) and the exact chain (such fights pass its budget) are
not run, so the whole table fits a loaded machine's afternoon: ``--all`` runs them too.

Run: .venv/bin/python benchmarks/win_chance.py [examples/<system>/<fight>.yaml ...]
(``--quick``: the Zamani duel only, as ``make test`` runs it.)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from fracas.analysis import paths
from fracas.analysis.duel import duel_odds
from fracas.analysis.winning import EXACT_STATES, Position, of_log, of_scenario, refine
from fracas.encounter.engine import Encounter
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[1]
GOALS = ((0.05, 1.0), (0.02, 5.0))  # (half-width, seconds)
EXACT_SECONDS = 10.0
MOST_FIGHTS = 64_000
SKIP_AFTER = 2.0  # CPU s of the first figure past which the rest is not run (see above)


def fights() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("examples/*/*-fight.yaml"))


def mid_fight(path: Path, where: Path) -> Position:
    """The fight at the end of its middle whole turn (``fracas fight --seed 1``)."""
    fight = Encounter(load_scenario(path), seed=1)
    fight.run()
    log = where / (path.stem + ".log")
    fight.save(log)
    middle = fight.marks[len(fight.marks) // 2] if fight.marks else 0
    return of_log(log, at=middle)


def cold() -> None:
    paths.forget_all()


def clocks() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def to_goals(position: Position, every: bool, warm: bool = False
             ) -> Iterator[tuple[float, float, float] | None]:
    """For each goal: (CPU s, wall s, half-width) of the first figure within it (None:
    not reached, or not run past :data:`SKIP_AFTER`); from cold memos unless ``warm``."""
    if not warm:
        cold()
    cpu0, wall0 = clocks()
    met: list[tuple[float, float, float] | None] = [None] * len(GOALS)
    for chance in refine(position, target=min(w for w, _ in GOALS),
                         max_fights=MOST_FIGHTS, exact_seconds=0.0):
        cpu, wall = clocks()
        for i, (width, _) in enumerate(GOALS):
            if met[i] is None and chance.half_width() <= width:
                met[i] = (cpu - cpu0, wall - wall0, chance.half_width())
        if all(m is not None for m in met):
            break
        if not every and cpu - cpu0 > SKIP_AFTER and (met[0] is None
                                                     or met[0][0] > SKIP_AFTER):
            break  # the first figure took too long: the rest is not run
    yield from met


def exact_time(position: Position, warm: bool = False) -> tuple[float, float, int] | None:
    if not warm:
        cold()
    cpu0, wall0 = clocks()
    try:
        duel = duel_odds(position.setup, position.state, EXACT_STATES,
                         max_seconds=EXACT_SECONDS)
    except InputError:
        return None
    cpu, wall = clocks()
    return cpu - cpu0, wall - wall0, duel.states


def cell(found: tuple[float, float, float] | None, goal: float) -> str:
    if found is None:
        return f"{'not run':>17}"
    mark = "" if found[0] <= goal else " !"
    return f"{found[0]:>6.2f} ({found[1]:>5.1f}){mark:<2}"


def row(name: str, at: str, position: Position, every: bool, warm: bool = False) -> None:
    five, two = to_goals(position, every, warm)
    small = every or (five is not None and five[0] <= SKIP_AFTER)
    exact = exact_time(position, warm) if small else None
    shown = (f"{exact[0]:>6.2f} ({exact[1]:>5.1f}) {exact[2]:>7,} st"
             if exact else f"{'too large' if small else 'not run':>24}")
    print(f"{name.removeprefix('examples/'):<42}{at:<9}{cell(five, 1.0)}"
          f"{cell(two, 5.0)}{shown:>24}", flush=True)


def main() -> None:
    every = "--all" in sys.argv
    quick = ["examples/zamani/duel-fight.yaml"] if "--quick" in sys.argv else []
    names = [a for a in sys.argv[1:] if not a.startswith("--")] or quick or fights()
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on "
          f"{os.cpu_count()} cores; CPU seconds of one process (wall seconds in brackets); "
          "! = past the goal (+-5 points: 1 s, +-2 points: 5 s); exact: at most "
          f"{EXACT_STATES:,} states and {EXACT_SECONDS:g} s")
    print(f"{'fight':<42}{'at':<9}{'+-5 points':>17}{'+-2 points':>17}{'exact':>24}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            path = ROOT / name
            mid = mid_fight(path, Path(tmp))
            row(name, "start", of_scenario(load_scenario(path)), every)
            row(name, "mid/live", mid, every, warm=True)
            row(name, "mid", mid, every)


if __name__ == "__main__":
    main()
