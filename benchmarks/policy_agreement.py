"""How often the ``cautious`` and ``best-odds`` policies, ranking options through each
system's ranking states (:meth:`fracas.core.system.RuleSystem.ranking_state`), choose
otherwise than the exact ranking on the real state, on every example fight.

Each fight is simulated step by step with the policies as they are; at every decision of
more than one option, the exact ranking's choice is computed beside it (on the same
state) and compared. A different option of the same exact value (expected damage and
take-out chance) is counted apart; another is counted with its cost: the exact expected
damage and take-out chance it gives up (lets through, for a reaction) against the exact
ranking's best.

Run: .venv/bin/python benchmarks/policy_agreement.py [--fights N] [--seed N] [--quick]
(--quick: one fight of each of the two smallest example fights)
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from fracas.core.model import Action, Roster
from fracas.core.system import RuleSystem
from fracas.encounter import policies

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_FIGHTS = sorted((ROOT / "examples").glob("*/*-fight.yaml"))


@dataclass
class Agreement:
    """Decisions met, those where the two rankings chose differently, and how much
    exact value the choice made gave up."""

    decisions: int = 0
    equal: int = 0  # another option than the exact ranking's, of the same exact value
    differ: int = 0  # an option of another exact value
    worst: Fraction = Fraction(0)  # the most expected damage given up (or let through)
    worst_out: Fraction = Fraction(0)  # the same for the chance to take the target out
    examples: list[str] = field(default_factory=list)


def compare(path: Path, fights: int, seed: int) -> Agreement:
    """Simulate ``fights`` fights of ``path`` step by step, comparing every decision."""
    from fracas.analysis.simulate import simulate
    from fracas.encounter.engine import setup_from_scenario
    from fracas.odds.cache import cached_odds
    from fracas.registry.scenarios import load_scenario

    scenario = load_scenario(path)
    setup = setup_from_scenario(scenario)
    seen = Agreement()
    ranked = policies._best

    def both(system: RuleSystem, options: list[Action], roster: Roster, most: bool
             ) -> Action:
        chosen = ranked(system, options, roster, most)
        if len(options) > 1:
            before = policies.exact_ranking(True)
            try:
                exact = ranked(system, options, roster, most)
            finally:
                policies.exact_ranking(before)
            seen.decisions += 1
            if exact != chosen:
                want, got = (cached_odds(system, a, roster) for a in (exact, chosen))
                if (want.expected_damage, want.p_taken_out) == (got.expected_damage,
                                                                 got.p_taken_out):
                    seen.equal += 1  # another option of the same exact value
                else:
                    seen.differ += 1
                    gap = abs(want.expected_damage - got.expected_damage)
                    out = abs(want.p_taken_out - got.p_taken_out)
                    seen.worst = max(seen.worst, gap)
                    seen.worst_out = max(seen.worst_out, out)
                    if len(seen.examples) < 3:
                        seen.examples.append(
                            f"{'attack' if most else 'reaction'} of {chosen.target}: "
                            f"expected damage {float(got.expected_damage):.3f} instead of "
                            f"{float(want.expected_damage):.3f}, take-out chance "
                            f"{float(got.p_taken_out):.4f} instead of "
                            f"{float(want.p_taken_out):.4f}")
        return chosen

    policies._best = both  # type: ignore[assignment]
    try:
        simulate(setup, scenario.roster, fights, seed=seed, method="steps")
    finally:
        policies._best = ranked  # type: ignore[assignment]
    return seen


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fights", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    fights = [p for p in EXAMPLE_FIGHTS if p.name == "duel-fight.yaml"][:2] if args.quick \
        else EXAMPLE_FIGHTS
    if args.quick:
        args.fights = 1
    print(f"{'fight':<36} {'decisions':>9} {'same value':>10} {'differ':>7} {'share':>7} "
          f"{'damage gap':>10} {'take-out gap':>12}  CPU s")
    for path in fights:
        start = time.process_time()
        seen = compare(path, args.fights, args.seed)
        share = seen.differ / seen.decisions if seen.decisions else 0.0
        name = f"{path.parent.name}/{path.name}"
        print(f"{name:<36} {seen.decisions:>9} {seen.equal:>10} {seen.differ:>7} "
              f"{share:>7.1%} {float(seen.worst):>10.3f} {float(seen.worst_out):>12.4f}  "
              f"{time.process_time() - start:.1f}")
        for line in seen.examples:
            print(f"    {line}")


if __name__ == "__main__":
    main()
