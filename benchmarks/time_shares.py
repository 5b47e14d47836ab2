"""Where step-by-step simulation spends its time, side by side for the example fights of
five or six combatants and the Genesys three-against-three (the table in docs/fights.md).

Each fight is simulated step by step with the policies' exact odds
(``fracas.encounter.policies.cached_odds``) and the rule system's ``resolve`` timed apart;
the rest is the fight loop (slots, initiative, applying events, ending the fight). CPU
seconds of this process, less sensitive than wall time to a machine shared with other work.
The last two columns are the most a path could gain by making ``resolve`` free (any faster
rule code or sub-step cache, the policies' odds and the loop as they are), and by making
both ``resolve`` and the policies' odds free (the loop as it is).

Run: .venv/bin/python benchmarks/time_shares.py [--seed N] [--quick]
(--quick: two fights of the first two)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fracas.analysis import simulate as sim
from fracas.encounter import policies
from fracas.encounter.engine import setup_from_scenario
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[1]
FIGHTS = [("genesys/three-vs-three-fight.yaml", 60), ("zamani/river-crossing-fight.yaml", 60),
          ("tristat/warehouse-fight.yaml", 20), ("contest/gate-fight.yaml", 20),
          ("c22/deck-brawl-fight.yaml", 8)]


class Clock:
    """CPU seconds spent inside wrapped functions, outermost calls only."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self._depth = 0

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self._depth:
                return fn(*args, **kwargs)
            self._depth += 1
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.spent[name] = self.spent.get(name, 0.0) + time.process_time() - start
                self._depth -= 1
        return timed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    fights = [(name, 2) for name, _ in FIGHTS[:2]] if args.quick else FIGHTS
    clock = Clock()
    policies.cached_odds = clock.wrap("odds", policies.cached_odds)
    print(f"{'fight':<34} {'fights':>6} {'attacks/s':>9} {'policy odds':>11} "
          f"{'resolve':>8} {'the rest':>8} {'no resolve':>10} {'loop only':>9}")
    for name, n in fights:
        clock.spent.clear()
        scenario = load_scenario(ROOT / "examples" / name)
        setup = setup_from_scenario(scenario)
        kind = type(setup.system)
        plain = kind.resolve
        kind.resolve = clock.wrap("resolve", plain)  # type: ignore[method-assign]
        try:
            start = time.process_time()
            fights = sim.simulate(setup, scenario.roster, n, seed=args.seed, method="steps")
            total = time.process_time() - start
        finally:
            kind.resolve = plain  # type: ignore[method-assign]
        odds, rules = clock.spent.get("odds", 0.0), clock.spent.get("resolve", 0.0)
        actions = int(fights.actions.sum()) if fights.actions is not None else 0
        print(f"{name:<34} {n:>6} {actions / total:>9,.0f} {odds / total:>11.0%} "
              f"{rules / total:>8.0%} {(total - odds - rules) / total:>8.0%} "
              f"{total / (total - rules):>9.1f}x {total / (total - rules - odds):>8.1f}x")


if __name__ == "__main__":
    main()
