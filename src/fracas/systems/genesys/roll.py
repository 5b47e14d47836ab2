"""``fracas roll PPAAB-CCDS [--odds] [--json]``: a Genesys pool on the command line.

Notation: the letters P (proficiency), A (ability), B (boost), then optionally
``-`` and C (challenge), D (difficulty), S (setback); a number may stand before a
letter (``5P5A2B-4C2D2S``). Anything else is not a pool (``parse_pool`` gives None).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fracas.dice.rollers import Roller
from fracas.errors import InputError
from fracas.odds.text import fraction_text
from fracas.systems.genesys.dice import DIE_LETTERS, DIE_ORDER, MAX_DICE, PoolResult, PoolSpec
from fracas.systems.genesys.pool import (
    JOINT_LIMIT,
    GenesysPool,
    joint_size,
    pool_marginals,
    pool_table,
)

NOTATION = ("P A B (positive dice), then '-' and C D S (negative dice); a count may stand "
            f"before a letter (5P2A-3D), at most {MAX_DICE} of each die; a pool of negative "
            "dice only follows '--' on the command line (fracas roll -- -CCD)")

_POOL = re.compile(r"^\s*((?:\d*[PAB])*)\s*(?:-\s*((?:\d*[CDS])*))?\s*$")


def parse_pool(expression: str) -> PoolRoll | None:
    """A pool in the roll notation, or None when the expression is not one."""
    m = _POOL.match(expression)
    if m is None or not (m.group(1) or m.group(2)):
        return None
    try:
        spec = PoolSpec.parse(expression.replace(" ", "") or "-")
    except ValueError:
        return None
    return PoolRoll(expression.strip(), spec)


def pool_problem(expression: str) -> str | None:
    """What is wrong with an expression written as a pool (capital die letters, counts,
    one '-'), in the words of pools; None when it does not look like a pool at all."""
    text = expression.replace(" ", "")
    if not re.fullmatch(r"-?[0-9A-Z]+(-[0-9A-Z]*)?", text) or not set(text) & set("PABCDS"):
        return None
    positive, _, negative = text.partition("-") if not text.startswith("-") else (
        "", "-", text[1:])
    letters = {v: k for k, v in DIE_LETTERS.items()}
    for part, side in ((positive, "positive"), (negative, "negative")):
        for count, letter in re.findall(r"(\d*)([A-Z]?)", part):
            if not letter and count:
                return f"the pool {expression!r} ends in a count ({count}) with no die after it"
            if not letter:
                continue
            if letter not in letters:
                return f"the pool {expression!r} has an unknown die {letter!r}"
            name = letters[letter]
            is_positive = DIE_ORDER.index(name) < 3
            if side == "negative" and is_positive:
                return (f"in the pool {expression!r}, {letter} ({name}) comes after the "
                        "'-': only the negative dice C D S follow it")
            if side == "positive" and not is_positive and negative:
                return (f"in the pool {expression!r}, {letter} ({name}) comes before the "
                        "'-': the negative dice C D S follow it")
    try:
        PoolSpec.parse(text if text.strip("-") else "")
    except ValueError as err:
        return f"the pool {expression!r}: {err}"
    return None


def check_pool(expression: str) -> None:
    """Raise a pool's own :class:`InputError` when the expression is a pool gone wrong."""
    problem = pool_problem(expression)
    if problem is not None:
        raise InputError(problem, path="pool", allowed=NOTATION)


def parse_roll(expression: str) -> PoolRoll | None:
    """The system's ``parse_roll`` hook, readable without loading the rules."""
    return parse_pool(expression)


def roll_problem(expression: str) -> None:
    """The system's ``roll_problem`` hook, readable without loading the rules."""
    check_pool(expression)


@dataclass(frozen=True)
class PoolRoll:
    """A pool typed on the command line: exact odds, or one roll."""

    expression: str
    spec: PoolSpec

    def odds_json(self, joint: bool = False) -> dict[str, Any]:
        """Exact odds: p_success, the chances of a triumph and of a despair, and the
        marginals of net successes, net advantage, triumphs and despairs, as fraction
        strings; with ``joint``, also the joint distribution of the four, keyed
        ``"s,a,t,d"`` (a clear error past :data:`JOINT_LIMIT` results)."""
        marginals = pool_marginals(self.spec)
        data: dict[str, Any] = {
            "pool": self.spec.notation(),
            "dice": self.spec.describe(),
            "rolls": self.spec.sides_total(),  # equally likely ways the dice can fall
            "p_success": fraction_text(sum((p for k, p in marginals["successes"].items()
                                            if k >= 1), _frac(0, 1))),
            "p_triumph": fraction_text(1 - marginals["triumphs"].get(0, _frac(0, 1))),
            "p_despair": fraction_text(1 - marginals["despairs"].get(0, _frac(0, 1))),
            "marginals": {axis: {str(k): fraction_text(p) for k, p in dist.items()}
                          for axis, dist in marginals.items()},
        }
        if not joint:
            return data
        size = joint_size(self.spec)
        if size > JOINT_LIMIT:
            raise InputError(f"the joint distribution of the pool {self.spec.notation()} "
                             f"has up to {size:,} results, more than {JOINT_LIMIT:,}",
                             path="--joint", allowed="a smaller pool, or leave out --joint "
                             "for P(success) and the marginals")
        table = pool_table(self.spec)
        total = table.total
        data["joint_keys"] = ["net_successes", "net_advantage", "triumphs", "despairs"]
        data["joint"] = {f"{s},{a},{t},{d}": fraction_text(_frac(w, total))
                         for (s, a, t, d), w in sorted(table.items())}
        return data

    def sample_json(self, roller: Roller) -> dict[str, Any]:
        r: PoolResult = roller.roll(GenesysPool(self.spec))
        return {"pool": self.spec.notation(), "net_successes": r.successes,
                "net_advantage": r.advantage, "triumphs": r.triumphs, "despairs": r.despairs,
                "success": r.success, "result": r.describe()}

    def render(self, data: dict[str, Any]) -> Any:
        """A Rich view of either JSON form."""
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        if "marginals" not in data:
            verdict = "success" if data["success"] else "failure"
            return Text(f"{data['pool']}: {data['result']} ({verdict})")
        exact = data["p_success"]
        exact = f"{exact} ≈ " if len(exact) <= _EXACT_WIDTH else "(exact: see --json) "
        parts: list[Any] = [Text(f"{data['pool']} ({data['dice']}): P(success) = "
                                 f"{exact}{_pct(data['p_success'])}", style="bold")]
        for axis, dist in data["marginals"].items():
            title = f"net {axis}" if axis in ("successes", "advantage") else axis
            table = Table(title=title, show_edge=False)
            table.add_column("value", justify="right")
            table.add_column("probability", justify="right")
            table.add_column("exact", justify="right", style="dim")
            shown = _visible(dist)
            for k in shown:
                p = dist[k]
                table.add_row(k, _pct(p), p if len(p) <= _EXACT_WIDTH else "(see --json)")
            parts.append(table)
            if len(shown) < len(dist):
                parts.append(Text(f"{len(dist) - len(shown)} values of {title} under "
                                  f"{_SHOWN_FROM:.0e} each not shown (see --json)",
                                  style="dim"))
        parts.append(Text(f"P(triumph) = {_pct(data['p_triumph'])}, P(despair) = "
                          f"{_pct(data['p_despair'])}"))
        if "joint" in data:
            parts.append(Text(f"joint distribution: {len(data['joint'])} results "
                              "(see --json)", style="dim"))
        return Group(*parts)


_SHOWN_FROM = 1e-6  # the text view leaves out values less likely than this (JSON has all)
_EXACT_WIDTH = 40  # longer exact fractions are left to --json


def _visible(dist: dict[str, str]) -> list[str]:
    """The values of a marginal worth a row of the text view: from the first to the last
    of at least :data:`_SHOWN_FROM`, so that a huge pool's view stays short."""
    from fractions import Fraction

    keys = list(dist)
    likely = [i for i, k in enumerate(keys) if Fraction(dist[k]) >= _SHOWN_FROM]
    return keys[likely[0]:likely[-1] + 1] if likely else keys


def _frac(w: int, total: int) -> Any:
    from fractions import Fraction

    return Fraction(w, total)


def _pct(text: str) -> str:
    from fractions import Fraction

    return f"{float(Fraction(text)) * 100:.2f}%"
