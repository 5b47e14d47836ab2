"""Exact probabilities as text: the JSON form (``"35/216"``) and its floats.

Light to import: ``fracas roll`` wants only :func:`fraction_text`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def fraction_text(p: Fraction | int) -> str:
    """``"35/216"``, or ``"0"`` / ``"1"``: the JSON form of an exact probability."""
    p = Fraction(p)
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def as_float(exact: Any) -> Any:
    """The same structure with each exact probability (``"35/216"``, ``"1"``) as a float."""
    if isinstance(exact, dict):
        return {k: as_float(v) for k, v in exact.items()}
    if isinstance(exact, list):
        return [as_float(v) for v in exact]
    if isinstance(exact, str):
        return float(Fraction(exact))
    return exact
