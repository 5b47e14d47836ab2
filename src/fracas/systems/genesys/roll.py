"""``fracas roll PPAAB-CCDS [--odds] [--json]``: a Genesys pool on the command line.

Notation: the letters P (proficiency), A (ability), B (boost), then optionally
``-`` and C (challenge), D (difficulty), S (setback); a number may stand before a
letter (``5P5A2B-4C2D2S``). Anything else is not a pool (``parse_pool`` gives None).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fracas.analysis.odds import fraction_text
from fracas.dice.rollers import Roller
from fracas.systems.genesys.dice import PoolResult, PoolSpec
from fracas.systems.genesys.pool import GenesysPool, pool_table

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


@dataclass(frozen=True)
class PoolRoll:
    """A pool typed on the command line: exact odds, or one roll."""

    expression: str
    spec: PoolSpec

    def odds_json(self) -> dict[str, Any]:
        """Exact odds: p_success and the joint distribution of (net successes, net
        advantage, triumphs, despairs), keyed ``"s,a,t,d"``, as fraction strings."""
        table = pool_table(self.spec)
        total = table.total
        joint = {f"{s},{a},{t},{d}": fraction_text(_frac(w, total))
                 for (s, a, t, d), w in sorted(table.items())}
        return {
            "pool": self.spec.notation(),
            "dice": self.spec.describe(),
            "rolls": total,  # equally likely ways the dice can fall
            "p_success": fraction_text(table.p_success()),
            "marginals": {axis: {str(k): fraction_text(p)
                                 for k, p in table.marginal(axis).items()}
                          for axis in ("successes", "advantage", "triumphs", "despairs")},
            "joint_keys": ["net_successes", "net_advantage", "triumphs", "despairs"],
            "joint": joint,
        }

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

        if "joint" not in data:
            verdict = "success" if data["success"] else "failure"
            return Text(f"{data['pool']}: {data['result']} ({verdict})")
        parts: list[Any] = [Text(f"{data['pool']} ({data['dice']}): P(success) = "
                                 f"{data['p_success']} ≈ {_pct(data['p_success'])}",
                                 style="bold")]
        for axis, dist in data["marginals"].items():
            table = Table(title=f"net {axis}" if axis in ("successes", "advantage") else axis,
                          show_edge=False)
            table.add_column("value", justify="right")
            table.add_column("probability", justify="right")
            table.add_column("exact", justify="right", style="dim")
            for k, p in dist.items():
                table.add_row(k, _pct(p), p)
            parts.append(table)
        parts.append(Text(f"joint distribution: {len(data['joint'])} results "
                          "(see --json)", style="dim"))
        return Group(*parts)


def _frac(w: int, total: int) -> Any:
    from fractions import Fraction

    return Fraction(w, total)


def _pct(text: str) -> str:
    from fractions import Fraction

    return f"{float(Fraction(text)) * 100:.2f}%"
