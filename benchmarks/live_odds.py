"""The odds live play shows beside each option, timed (issue 13: under 100 ms per option).

For each fight example given (by default the Genesys three-against-three and the Genesys
duel), the odds of every option every combatant has at the start of the fight, computed
as a live session does (``fracas.encounter.decisions.action_odds``, one process, its caches
warm from the options before it): the median, the slowest and the total, in CPU seconds
of this process (less sensitive than wall time to a machine shared with other work).

Run: .venv/bin/python benchmarks/live_odds.py [--quick] [examples/<system>/<fight>.yaml ...]
(--quick: the Genesys duel only)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from fracas.encounter.decisions import action_odds
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["examples/genesys/three-vs-three-fight.yaml", "examples/genesys/duel-fight.yaml"]
GOAL_MS = 100.0


def option_times(path: Path) -> list[float]:
    """CPU seconds of the odds of each offensive option at the start of the fight."""
    scenario = load_scenario(path)
    times = []
    for actor in scenario.roster:
        for action in scenario.system.actions(actor, scenario.roster):
            start = time.process_time()
            odds = action_odds(scenario.system, action, scenario.roster)
            if odds is not None:
                times.append(time.process_time() - start)
    return times


def main() -> None:
    print(f"{'fight':<48}{'options':>8}{'median ms':>11}{'max ms':>9}{'total s':>9}"
          f"{'goal ms':>9}  met (median)")
    names = [a for a in sys.argv[1:] if a != "--quick"]
    quick = "--quick" in sys.argv
    for name in names or (DEFAULT[1:] if quick else DEFAULT):
        times = option_times(ROOT / name)
        if not times:
            print(f"{name:<48}{0:>8}  (no option with odds)")
            continue
        median = statistics.median(times) * 1000
        print(f"{name:<48}{len(times):>8}{median:>11.1f}{max(times) * 1000:>9.1f}"
              f"{sum(times):>9.2f}{GOAL_MS:>9.0f}  {'yes' if median < GOAL_MS else 'NO'}",
              flush=True)


if __name__ == "__main__":
    main()
