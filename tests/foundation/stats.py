"""Statistics helpers for sampled-vs-exact tests (no scipy needed)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable

from fracas.dice import Distribution

# One-sided normal quantile for a significance of 0.001.
Z_001 = 3.090


def chi_square_critical(df: int, z: float = Z_001) -> float:
    """The chi-square critical value (Wilson–Hilferty approximation, good for df >= 1)."""
    term = 1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))
    return df * term**3


def chi_square(samples: Iterable[Hashable], exact: Distribution[Hashable]) -> tuple[float, int]:
    """Pearson's statistic of samples against an exact distribution, and its degrees of freedom.

    Outcomes with an expected count below 5 are pooled into one cell.
    """
    counts = Counter(samples)
    n = sum(counts.values())
    assert set(counts) <= set(exact.outcomes()), "a sample fell outside the support"
    stat, pooled_obs, pooled_exp, cells = 0.0, 0, 0.0, 0
    for outcome, p in exact.probabilities().items():
        expected = n * float(p)
        if expected < 5:
            pooled_obs += counts.get(outcome, 0)
            pooled_exp += expected
            continue
        stat += (counts.get(outcome, 0) - expected) ** 2 / expected
        cells += 1
    if pooled_exp > 0:
        stat += (pooled_obs - pooled_exp) ** 2 / pooled_exp
        cells += 1
    return stat, max(cells - 1, 1)
