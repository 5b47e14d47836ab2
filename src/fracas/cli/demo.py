"""``fracas demo``: a narrated tour that grows as rule systems land.

For the dice layer it shows exact odds; for each built-in system it resolves the
system's demo examples (its seed's worked example first, dice pinned) and shows
the exact odds of the same attack.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.rule import Rule

from fracas.cli import render
from fracas.cli.base import command_name
from fracas.dice import RandomRoller, ScriptedRoller, parse_dice
from fracas.errors import InputError
from fracas.odds.attack import attack_odds
from fracas.odds.text import fraction_text
from fracas.registry import systems
from fracas.registry.scenarios import load_scenario


def examples_dir(given: Path | None = None) -> Path | None:
    """The examples folder given (``--examples``): checked to be there."""
    if given is not None and not given.is_dir():
        raise InputError("no such folder", file=str(given), path="--examples",
                         allowed="a folder of example scenarios")
    return given


def demo_files(system_id: str, names: tuple[str, ...], given: Path | None) -> list[Path]:
    """The files ``fracas demo`` narrates for a system: its ``demo_examples`` (or, for a
    system that names none, its first example with an attack) in the folder given, else
    where the system ships its examples (:mod:`fracas.registry.examples`)."""
    if given is not None:
        return [given / system_id / name for name in names]
    from fracas.registry.examples import all_examples

    mine = {e.path.name: e.path for e in all_examples() if e.system == system_id}
    if not names:
        names = tuple(n for n in sorted(mine) if not n.endswith("-fight.yaml"))[:1]
    return [mine[name] for name in names if name in mine]


def run_demo(console: Console, examples: Path | None = None) -> None:
    folder = examples_dir(examples)  # a folder given that is not there: an error first
    console.print(Rule("[bold]fracas[/] — a rules-faithful combat engine"))
    console.print("Every number below is computed by the library; dice are pinned where the "
                  "rule books give them, so the worked examples come out exactly.\n")

    console.print(Rule("Dice: exact odds"))
    three = parse_dice("3d20kh1").exact()
    console.print(f"A d20 with two boons (3d20kh1) shows a natural 20 with probability "
                  f"[bold]{fraction_text(three.probability(20))}[/] "
                  f"({render.percent(three.probability(20))}); its mean is "
                  f"{float(three.mean()):.3f}.")
    two = parse_dice("2d6").exact()
    console.print(f"Rolling 7 or less on 2d6: [bold]{fraction_text(two.cdf(7))}[/]; snake eyes: "
                  f"{fraction_text(two.probability(2))}.")
    console.print(f"A seeded roll is repeatable: 4d6kl3 with seed 7 gives "
                  f"{RandomRoller(7).roll(parse_dice('4d6kl3'))}, every time.\n")

    for system_id, system_cls in systems().items():
        paths = [p for p in demo_files(system_id, system_cls.demo_examples, folder)
                 if p.exists()]
        if not paths:
            continue
        console.print(Rule(f"{system_cls.title} ({system_id})"))
        for path in paths:
            scenario = load_scenario(path)
            if scenario.attack is None:
                continue
            console.print(f"[bold]{scenario.title or path.name}[/]  [dim]{path}[/]")
            pins = scenario.pins()
            roller = ScriptedRoller(pins) if pins is not None else RandomRoller(1)
            result = scenario.system.resolve(roller, scenario.attack, scenario.roster)
            console.print(render.event_lines(result.events, rules=True, say=render.teller(
                scenario.roster, scenario.system.words)))
            odds = attack_odds(scenario.system, scenario.attack, scenario.roster)
            console.print(f"  Exact odds of this attack: hit {render.percent(odds.p_hit)}, "
                          f"expected damage {float(odds.expected_damage):.2f}, target taken out "
                          f"{render.percent(odds.p_taken_out)}.\n")

    duel = (folder / "tristat" / "duel-fight.yaml" if folder is not None
            else _shipped("tristat/duel-fight.yaml"))
    if duel is not None and duel.exists():
        _demo_fights(console, duel)


def _demo_fights(console: Console, path: Path) -> None:
    """A whole fight, then many: the encounter layer and the fast simulation path."""
    from fracas.analysis.simulate import simulate, summarize
    from fracas.encounter.engine import Encounter, setup_from_scenario

    console.print(Rule("Whole fights"))
    scenario = load_scenario(path)
    fight = Encounter(scenario, seed=7)
    state = fight.run()
    replays = "replays to the same state" if fight.replayed() == state else \
        "does NOT replay to the same state"
    console.print(f"[bold]{scenario.title}[/] with seed 7: {fight.events[-1].text()} "
                  f"({len(fight.events)} events; the log {replays}).")
    n = 50_000
    fights = simulate(setup_from_scenario(scenario), scenario.roster, n, seed=1, method="fast")
    summary = summarize(fights)
    wins = ", ".join(f"{side} {s['p_win']:.1%} (95% {s['ci95'][0]:.1%}–{s['ci95'][1]:.1%})"
                     for side, s in summary["sides"].items())
    console.print(f"{n:,} simulated fights on the fast path: {wins}; mean "
                  f"{summary['rounds']['mean']:.1f} rounds. Try: {command_name()} simulate "
                  f"{path} -n 1000000\n")


def _shipped(name: str) -> Path | None:
    """The file of a shipped example, or None."""
    from fracas.registry.examples import all_examples

    return next((e.path for e in all_examples() if e.name == name), None)
