"""Rich views of the analysis commands' results: exact fight odds, advice, sweeps."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from fracas.cli import render
from fracas.core.words import count


def exact_text(p: Any, limit: int = 24) -> str:
    from fracas.odds.text import fraction_text

    text = fraction_text(p)
    return text if len(text) <= limit else "(long fraction: see --json)"


def duel_view(duel: Any, title: str) -> Group:
    table = Table(title=f"{title}: exact odds over {duel.states:,} fight states",
                  show_edge=False)
    table.add_column("outcome")
    table.add_column("probability", justify="right")
    table.add_column("exact", justify="right", style="dim")
    for name, p in duel.outcomes.items():
        table.add_row(name, render.percent(p), exact_text(p))
    rounds = Table(title=f"Rounds to the end: mean {float(duel.mean_rounds()):.3f}",
                   show_edge=False)
    rounds.add_column("rounds", justify="right")
    rounds.add_column("probability", justify="right")
    rounds.add_column("at most", justify="right")
    rounds.add_column("", min_width=30)
    dist = duel.rounds_distribution()
    top = max(dist.values()) if dist else 1
    running = 0
    for r, p in dist.items():
        running += p
        if p * 10_000 < 1 and r > 1 and running > 0.9999:
            continue
        rounds.add_row(str(r), render.percent(p), render.percent(running),
                       "█" * max(1, round(30 * p / top)))
    note = Text(f"{duel.transitions:,} transitions, {duel.turns} turns of propagation, "
                f"round limit {duel.max_rounds}; {duel.seconds:.2f} s", style="dim")
    return Group(table, rounds, note)


def advice_view(advice: Any, title: str, top: int) -> Group:
    def pct(p: Any) -> str:
        return render.percent(p)

    options = Table(title=f"{title}: the attacker's options, by exact expected damage",
                    show_edge=False)
    for col in ("#", "option", "expected damage", "hit", "taken out", "best reply",
                "its damage"):
        options.add_column(col, justify="left" if col in ("option", "best reply") else "right")
    for i, o in enumerate(advice.options[:top], 1):
        best = o.best_reply
        style = "bold yellow" if o.as_written else ""
        options.add_row(str(i), o.label, f"{float(o.odds.expected_damage):.3f}",
                        pct(o.odds.p_hit), pct(o.odds.p_taken_out), best.label,
                        f"{float(best.odds.expected_damage):.3f}", style=style)
    parts: list[Any] = [options]
    notes = []
    if advice.situation:
        notes.append(f"kept from the scenario: {advice.situation}")
    if len(advice.options) > top:
        notes.append(f"{len(advice.options) - top} more options: --top N or --json")
    if notes:
        parts.append(Text("; ".join(notes), style="dim"))
    defenses = Table(title="The defender's answers to the attack as written, least damage "
                     "first", show_edge=False)
    for col in ("#", "answer", "expected damage", "hit", "taken out"):
        defenses.add_column(col, justify="left" if col == "answer" else "right")
    for i, r in enumerate(advice.defenses, 1):
        style = "bold yellow" if r.action == advice.attack else ""
        defenses.add_row(str(i), r.label, f"{float(r.odds.expected_damage):.3f}",
                         pct(r.odds.p_hit), pct(r.odds.p_taken_out), style=style)
    parts.append(defenses)
    for s in advice.skipped:
        parts.append(Text(f"not shown: {s}", style="dim"))
    return Group(*parts)


def cell(p: dict[str, Any] | None) -> str:
    if p is None:
        return ""
    if p.get("value") is None:
        return "error"
    v = float(p["value"])
    return f"{v:.3f}" + ("" if p.get("method") == "exact" else "~")


def sweep_view(result: Any, title: str) -> list[Any]:
    axes = result.axes
    parts: list[Any] = []
    caption = f"{title}: {result.label}"
    if len(axes) == 2:
        (rname, rvalues), (cname, cvalues) = axes
        table = Table(title=caption, caption=f"rows: {rname}; columns: {cname}",
                      show_edge=False)
        table.add_column(rname.rsplit(".", 1)[-1], style="bold")
        for c in cvalues:
            table.add_column(str(c), justify="right")
        for r in rvalues:
            table.add_row(str(r), *(cell(result.point_at((r, c))) for c in cvalues))
        parts.append(table)
    else:
        table = Table(title=caption, show_edge=False)
        for name, _ in axes:
            table.add_column(name, justify="right")
        table.add_column(result.label, justify="right")
        table.add_column("method", style="dim")
        for p in result.points:
            table.add_row(*(str(p["values"][n]) for n, _ in axes), cell(p),
                          p.get("method", ""))
        parts.append(table)
    simulated = sum(1 for p in result.points if p.get("value") is not None
                    and p.get("method") != "exact")
    errors = [p for p in result.points if p.get("value") is None]
    notes = [f"{len(result.points):,} points on {result.engine} workers"]
    if simulated:
        notes.append(f"~ simulated: {count(simulated, 'point')} past the exact budget")
    parts.append(Text("; ".join(notes), style="dim"))
    for p in errors[:5]:
        at = ", ".join(f"{name}={value}" for name, value in p["values"].items())
        parts.append(Text(f"error at {at}: {p['error']}", style="red"))
    if len(errors) > 5:
        parts.append(Text(f"... and {len(errors) - 5} more errors (see --json)", style="red"))
    return parts
