"""Pictures of odds, fights and sweeps, drawn with matplotlib (no display needed).

Every function draws on its own :class:`~matplotlib.figure.Figure` (never the global
pyplot state) and :func:`save` writes it as PNG or SVG by the file's suffix, or returns
the bytes for the HTML report.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import matplotlib as mpl
from matplotlib.figure import Figure

from fracas.errors import InputError

FORMATS = {".png": "png", ".svg": "svg"}
COLOURS = ("#3b6ea8", "#c8553d", "#5a9a62", "#8e6bb0", "#d49a2a", "#5b8e9e", "#9a5b7d")
GREY = "#8a8a8a"


def _plain_text(draw: Callable[..., Figure]) -> Callable[..., Figure]:
    """Draw with every text taken literally: a ``$`` in a title or a name is a dollar
    sign, not the start of mathtext (which fails on most such names)."""
    @functools.wraps(draw)
    def wrapped(*args: Any, **kwargs: Any) -> Figure:
        with mpl.rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)
    return wrapped


def check_writable(path: Path | str, option: str, what: str) -> None:
    """Refuse, before any work, a file that cannot be written: one in a folder that does
    not exist, or a folder itself (``what``: the kind of file, for the message)."""
    path = Path(path)
    folder = path.parent
    if path.is_dir():
        raise InputError(f"cannot write {what} {str(path)!r}: it is a folder", path=option,
                         allowed=f"a file name for {what}")
    if not folder.is_dir():
        reason = "is not a folder" if folder.exists() else "does not exist"
        raise InputError(f"cannot write {what} {str(path)!r}: the folder {str(folder)!r} "
                         f"{reason}", path=option, allowed="a file in an existing folder")


def check_path(path: Path | str, option: str = "--plot") -> str:
    """The format of a plot file from its suffix (``png`` or ``svg``), and a file that can
    be written there (checked before any work, so a long run is not lost at its end)."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"cannot tell the picture format of {str(path)!r}", path=option,
                         allowed="a file name ending in .png or .svg")
    check_writable(path, option, "the picture")
    return FORMATS[suffix]


def save(fig: Figure, path: Path | str, option: str = "--plot") -> None:
    """Write the figure as PNG or SVG (by the suffix)."""
    fmt = check_path(path, option)
    try:
        fig.savefig(path, format=fmt, dpi=120, bbox_inches="tight")
    except OSError as err:
        raise InputError(f"cannot write the picture {str(path)!r}: {err.strerror or err}",
                         path=option, allowed="a writable file") from None


def to_bytes(fig: Figure, fmt: str = "png") -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=110, bbox_inches="tight")
    return buffer.getvalue()


def _pct(p: float | Fraction) -> str:
    value = float(p) * 100
    if 0 < value < 0.1:
        return "<0.1%"
    return f"{value:.1f}%"


def _style(ax: Any) -> None:
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.grid(axis="y", color="#e4e4e4", linewidth=0.8)
    ax.set_axisbelow(True)


@_plain_text
def odds_figure(odds: Any, title: str, words: Any = None) -> Figure:
    """The damage distribution as bars and the chance to deal at least x, with the chance
    of each result (in the system's ``words``, when given) and the expected damage in the
    title."""
    damage = odds.damage.probabilities()
    values = sorted(damage)
    probs = [float(damage[v]) for v in values]
    fig = Figure(figsize=(10, 4.2))
    left, right = fig.subplots(1, 2)
    bars = left.bar([str(v) for v in values] if len(values) <= 40 else values, probs,
                    color=[GREY if v == 0 else COLOURS[0] for v in values], width=0.8)
    if len(values) <= 16:
        left.bar_label(bars, labels=[_pct(p) for p in probs], fontsize=8, padding=2)
    left.set_xlabel("damage the target loses")
    left.set_ylabel("probability")
    left.set_title("Damage distribution", fontsize=11)
    if len(values) > 16 and len(values) <= 40:
        for i, label in enumerate(left.get_xticklabels()):
            label.set_visible(i % max(1, len(values) // 12) == 0)
    _style(left)
    at_least = [float(odds.damage.sf(v)) for v in values]
    right.step(values, at_least, where="post", color=COLOURS[1], linewidth=2)
    right.plot(values, at_least, "o", color=COLOURS[1], markersize=3)
    right.set_ylim(0, 1.05)
    right.set_xlabel("damage, at least")
    right.set_ylabel("chance")
    right.set_title("Chance to deal at least this damage", fontsize=11)
    _style(right)
    results = " · ".join(f"{name if words is None else words.outcome(name)} {_pct(p)}"
                         for name, p in odds.outcomes.items())
    fig.suptitle(f"{title}\nany hit {_pct(odds.p_hit)} · {results} · "
                 f"taken out {_pct(odds.p_taken_out)} · "
                 f"expected damage {float(odds.expected_damage):.2f}", fontsize=11)
    fig.tight_layout()
    return fig


@_plain_text
def simulation_figure(summary: Mapping[str, Any], title: str) -> Figure:
    """Each side's win probability with its 95% interval, and the rounds histogram."""
    fig = Figure(figsize=(10, 4.2))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.4]})
    names = list(summary["sides"])
    p = [summary["sides"][s]["p_win"] for s in names]
    lo = [max(0.0, summary["sides"][s]["p_win"] - summary["sides"][s]["ci95"][0])
          for s in names]
    hi = [max(0.0, summary["sides"][s]["ci95"][1] - summary["sides"][s]["p_win"])
          for s in names]
    if summary["no_winner"]["count"]:
        names.append("no winner")
        p.append(summary["no_winner"]["p"])
        lo.append(0.0)
        hi.append(0.0)
    y = list(range(len(names)))
    left.barh(y, p, xerr=[lo, hi], color=COLOURS[: len(names)], capsize=5, height=0.6)
    for i, value in enumerate(p):
        left.text(min(value + hi[i] + 0.02, 0.8), i, _pct(value), va="center", fontsize=9)
    left.set_yticks(y, names)
    left.invert_yaxis()
    left.set_xlim(0, 1)
    left.set_xlabel("win probability (bars: 95% interval)")
    left.set_title("Who wins", fontsize=11)
    _style(left)
    hist = summary["rounds"]["histogram"]
    rounds = [int(k) for k in hist]
    counts = [hist[k] / summary["fights"] for k in hist]
    right.bar(rounds, counts, color=COLOURS[0], width=0.85)
    right.axvline(summary["rounds"]["mean"], color=COLOURS[1], linestyle="--",
                  label=f"mean {summary['rounds']['mean']:.2f}")
    right.legend(frameon=False)
    right.set_xlabel("rounds to the end")
    right.set_ylabel("share of fights")
    right.set_title("Rounds", fontsize=11)
    _style(right)
    fig.suptitle(f"{title}: {summary['fights']:,} simulated fights", fontsize=12)
    fig.tight_layout()
    return fig


@_plain_text
def duel_figure(duel: Any, title: str) -> Figure:
    """Exact win probabilities and the exact distribution of rounds, stacked by outcome."""
    fig = Figure(figsize=(10, 4.2))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.4]})
    names = [k for k, v in duel.outcomes.items() if v or k in duel.sides]
    p = [float(duel.outcomes[k]) for k in names]
    y = list(range(len(names)))
    left.barh(y, p, color=COLOURS[: len(names)], height=0.6)
    for i, value in enumerate(p):
        left.text(min(value + 0.02, 0.8), i, _pct(value), va="center", fontsize=9)
    left.set_yticks(y, names)
    left.invert_yaxis()
    left.set_xlim(0, 1)
    left.set_xlabel("probability (exact)")
    left.set_title("Who wins", fontsize=11)
    _style(left)
    everything = duel.rounds_distribution()
    rounds, running = [], Fraction(0)
    for r in sorted(everything):  # up to 99.99% of the fights: the tail is invisible
        if running >= Fraction(9999, 10000):
            break
        rounds.append(r)
        running += everything[r]
    bottom = [0.0] * len(rounds)
    for i, who in enumerate(names):
        dist = duel.rounds_distribution(who)
        heights = [float(dist.get(r, 0)) for r in rounds]
        if any(heights):
            right.bar(rounds, heights, bottom=bottom, color=COLOURS[i % len(COLOURS)],
                      width=0.85, label=who)
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    right.axvline(float(duel.mean_rounds()), color="#333333", linestyle="--",
                  label=f"mean {float(duel.mean_rounds()):.2f}")
    right.legend(frameon=False)
    right.set_xlabel("rounds to the end")
    right.set_ylabel("probability")
    right.set_title("Rounds (stacked by outcome)", fontsize=11)
    _style(right)
    fig.suptitle(f"{title}: exact, over {duel.states:,} fight states", fontsize=12)
    fig.tight_layout()
    return fig


@_plain_text
def advice_figure(rows: Sequence[tuple[str, float, float, bool]], title: str,
                  xlabel: str = "expected damage") -> Figure:
    """Horizontal bars of (label, value, chance to take out, highlighted) rows; a long
    label is wrapped (up to three lines) rather than cut where the options differ."""
    import textwrap

    labels = [textwrap.fill(r[0], 48, max_lines=3, placeholder=" ...") for r in rows]
    lines = max((label.count("\n") + 1 for label in labels), default=1)
    height = 1.2 + (0.32 + 0.24 * (lines - 1)) * len(rows)
    fig = Figure(figsize=(9, height))
    ax = fig.subplots()
    y = list(range(len(rows)))
    values = [r[1] for r in rows]
    colours = [COLOURS[1] if r[3] else COLOURS[0] for r in rows]
    ax.barh(y, values, color=colours, height=0.65)
    top = max([*values, 1e-9])
    for i, (_, value, out, _) in enumerate(rows):
        note = f"{value:.2f}" + (f"  (out {_pct(out)})" if out else "")
        ax.text(value + top * 0.01, i, note, va="center", fontsize=8)
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, top * 1.3)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=11)
    _style(ax)
    ax.grid(axis="x", color="#e4e4e4", linewidth=0.8)
    fig.tight_layout()
    return fig


def check_sweep_plot(sizes: Sequence[int]) -> None:
    """A sweep picture shows one or two varied values, or a third of at most six (the
    number of values of each varied path in ``sizes``): checked before the sweep runs."""
    if len(sizes) > 3 or (len(sizes) == 3 and sizes[2] > 6):
        raise InputError("a plot shows one or two varied values (or a third of at most 6 "
                         "values)", path="--plot", allowed="fewer --vary, or --json")


@_plain_text
def sweep_figure(result: Any, title: str) -> Figure:
    """One varied parameter: a line; two: a heat map; three: a heat map per value of the
    third (at most 6)."""
    axes_ = result.axes
    metric = result.label
    check_sweep_plot([len(values) for _, values in axes_])
    if len(axes_) == 1:
        fig = Figure(figsize=(7, 4.2))
        ax = fig.subplots()
        (name, values), = axes_
        ys = [result.value_at((v,)) for v in values]
        xs = list(range(len(values)))
        ax.plot(xs, ys, "o-", color=COLOURS[0], linewidth=2)
        lows = [result.interval_at((v,)) for v in values]
        if any(lo is not None for lo in lows):
            ax.fill_between(xs, [lo[0] if lo else y for lo, y in zip(lows, ys, strict=True)],
                            [lo[1] if lo else y for lo, y in zip(lows, ys, strict=True)],
                            color=COLOURS[0], alpha=0.2, label="95% interval")
            ax.legend(frameon=False)
        ax.set_xticks(xs, [str(v) for v in values])
        ax.set_xlabel(name)
        ax.set_ylabel(metric)
        ax.set_title(title, fontsize=11)
        _style(ax)
        fig.tight_layout()
        return fig
    panels = [()] if len(axes_) == 2 else [(v,) for v in axes_[2][1]]
    (rname, rvalues), (cname, cvalues) = axes_[0], axes_[1]
    fig = Figure(figsize=(min(4 + 0.75 * len(cvalues), 14) * len(panels) ** 0.5 + 1,
                          1.8 + 0.5 * len(rvalues)))
    grid = fig.subplots(1, len(panels), squeeze=False)[0]
    cells = [[[result.value_at((r, c, *extra)) for c in cvalues] for r in rvalues]
             for extra in panels]
    flat = [v for panel in cells for row in panel for v in row if v is not None]
    vmin, vmax = (min(flat), max(flat)) if flat else (0.0, 1.0)
    image = None
    for ax, panel, extra in zip(grid, cells, panels, strict=True):
        data = [[float("nan") if v is None else v for v in row] for row in panel]
        image = ax.imshow(data, cmap="viridis", aspect="auto", vmin=vmin, vmax=vmax,
                          origin="lower")
        mid = (vmin + vmax) / 2
        if len(rvalues) * len(cvalues) <= 150:
            for i, row in enumerate(panel):
                for j, v in enumerate(row):
                    if v is not None:
                        ax.text(j, i, f"{v:.2f}" if abs(v) < 100 else f"{v:.0f}",
                                ha="center", va="center", fontsize=8,
                                color="white" if v < mid else "black")
        ax.set_xticks(range(len(cvalues)), [str(v) for v in cvalues])
        ax.set_yticks(range(len(rvalues)), [str(v) for v in rvalues])
        ax.set_xlabel(cname)
        ax.set_ylabel(rname)
        if extra:
            ax.set_title(f"{axes_[2][0]} = {extra[0]}", fontsize=10)
    if image is not None:
        fig.colorbar(image, ax=list(grid), label=metric, shrink=0.9)
    fig.suptitle(title, fontsize=11)
    return fig


@_plain_text
def balance_figure(result: Any, title: str) -> Figure:
    """The win chance at each value a balance tried (95 % bars where simulated), the
    target as a dashed line and the chosen value ringed."""
    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    xs = [result.value_of(p) for p in result.points]
    ys = [float(p["value"]) for p in result.points]
    ax.plot(xs, ys, "o-", color=COLOURS[0], linewidth=2, label=f"{result.target.side} win chance")
    bars = [(x, y, p["ci95"]) for x, y, p in zip(xs, ys, result.points, strict=True)
            if p.get("ci95")]
    if bars:
        ax.errorbar([b[0] for b in bars], [b[1] for b in bars],
                    yerr=[[b[1] - b[2][0] for b in bars], [b[2][1] - b[1] for b in bars]],
                    fmt="none", ecolor=COLOURS[0], alpha=0.6, capsize=3,
                    label="95% interval")
    ax.axhline(result.target.chance, color=COLOURS[1], linestyle="--", linewidth=1.2,
               label=f"target {_pct(result.target.chance)}")
    best = result.best
    ax.plot([result.value_of(best)], [float(best["value"])], "o", markersize=14,
            markerfacecolor="none", markeredgecolor=COLOURS[1], markeredgewidth=2,
            label=f"closest: {result.value_of(best)} ({_pct(best['value'])})")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(result.vary.path)
    ax.set_ylabel(f"{result.target.side} win chance")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title, fontsize=11)
    ax.legend(frameon=False, fontsize=9)
    _style(ax)
    fig.tight_layout()
    return fig
