"""Rich renderers over events and odds: the only place that turns results into text."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from fracas.core.events import Event
    from fracas.core.model import Combatant
    from fracas.dice.distribution import Distribution
    from fracas.odds.attack import AttackOdds


def percent(p: Fraction) -> str:
    value = float(p) * 100
    if value and value < 0.01:
        return "<0.01%"
    return f"{value:.2f}%"


def event_lines(events: Iterable[Event], rules: bool = True,
                say: Callable[[Event], str] | None = None) -> Group:
    """One line per event, numbered, with the rule it applies dimmed (``say``: the line
    of an event, by default its own text)."""
    from fracas.core.events import Changed, Outcome, Rolled

    lines = []
    for i, event in enumerate(events, 1):
        style = ("bold" if isinstance(event, Outcome) else "cyan" if isinstance(event, Rolled)
                 else "yellow" if isinstance(event, Changed) else "")
        line = Text(f"{i:>3}. ", style="dim")
        line.append(event.text() if say is None else say(event), style=style)
        if rules:
            line.append(f"  [{event.rule}]", style="dim")
        lines.append(line)
    return Group(*lines)


def teller(roster: Any, words: Any) -> Callable[[Event], str]:
    """Each event's line in the table's words (the roster's names), as ``fracas play``
    narrates it."""
    from fracas.encounter.narration import teller

    return teller({cid: c.name for cid, c in roster.items()}, words)


def health_bar(current: int, maximum: int, width: int = 20) -> Text:
    maximum = max(maximum, 1)
    filled = max(0, min(width, round(width * current / maximum)))
    colour = "green" if current * 2 > maximum else "yellow" if current > 0 else "red"
    bar = Text("█" * filled, style=colour)
    bar.append("░" * (width - filled), style="dim")
    bar.append(f" {current}/{maximum}")
    return bar


def distribution_table(dist: Distribution[int], title: str, label: str = "value") -> Table:
    from fracas.odds.text import fraction_text

    table = Table(title=title, show_edge=False)
    table.add_column(label, justify="right")
    table.add_column("probability", justify="right")
    table.add_column("exact", justify="right", style="dim")
    table.add_column("at least", justify="right")
    table.add_column("", min_width=20)
    probs = dist.probabilities()
    top = max(probs.values())
    for value, p in probs.items():
        bar = "█" * max(1, round(30 * p / top)) if p else ""
        table.add_row(str(value), percent(p), fraction_text(p), percent(dist.sf(value)), bar)
    return table


def odds_view(odds: AttackOdds, title: str, words: Any = None) -> Group:
    """The exact odds of one attack as tables: results, damage, and each detail the
    system reports, named in the system's ``words`` (its data pack) when given."""
    from fracas.core.words import plain
    from fracas.odds.text import fraction_text

    summary = Table(title=title, show_edge=False)
    summary.add_column("result")
    summary.add_column("probability", justify="right")
    summary.add_column("exact", justify="right", style="dim")
    for name, p in odds.outcomes.items():
        summary.add_row(name if words is None else words.outcome(name), percent(p),
                        fraction_text(p))
    summary.add_row("[bold]any hit[/]", percent(odds.p_hit), fraction_text(odds.p_hit))
    summary.add_row("[bold]target taken out[/]", percent(odds.p_taken_out),
                    fraction_text(odds.p_taken_out))
    parts: list[Table | Text] = [summary]
    expected = odds.expected_damage
    parts.append(Text(f"Expected damage: {float(expected):.3f} ({fraction_text(expected)})",
                      style="bold"))
    parts.append(distribution_table(odds.damage, "Damage the target loses", "damage"))
    for name in odds.detail_names():
        shown = plain(name)
        table = Table(title=shown, show_edge=False)
        table.add_column(shown)
        table.add_column("probability", justify="right")
        for value, p in odds.detail(name).probabilities().items():
            table.add_row(_detail_value(value), percent(p))
        parts.append(table)
    return Group(*parts)


def _detail_value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def combatant_line(c: Combatant, current: int, maximum: int) -> Text:
    line = Text(f"{c.name} ({c.side}) ")
    line.append_text(health_bar(current, maximum))
    return line


def make_console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def fitting_console(*renderables: Any) -> Console:
    """A console for ``renderables`` that cuts no column when stdout is not a terminal (a
    pipe, a file): as wide as they need, unless ``COLUMNS`` says otherwise. On a terminal,
    the terminal's width."""
    import os

    from rich.measure import Measurement

    console = make_console()
    if not console.is_terminal and not os.environ.get("COLUMNS"):
        wide = console.options.update_width(1_000)
        need = max((Measurement.get(console, wide, r).maximum
                    for r in renderables), default=0)
        console.width = max(console.width, need)
    return console

