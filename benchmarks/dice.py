"""How long exact distributions take: fracas's dice layer, cold and cached, side by side with
brute-force enumeration of every roll (where that finishes in reasonable time).

Run: .venv/bin/python benchmarks/dice.py [--quick]   (--quick: no brute force over millions
of rolls, fewer repeats)
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import Counter
from collections.abc import Callable

from fracas.dice import Distribution, notation, parse_dice
from fracas.dice import variables as v


def clear_caches() -> None:
    for f in (v._uniform_die, v._keep_tuples, v._keep_dist, v.d, v.nd, v.keep, notation._parse):
        f.cache_clear()


def timed(fn: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def cold(expr: str) -> Callable[[], object]:
    def run() -> object:
        clear_caches()
        return parse_dice(expr).exact()
    return run


def brute(dice: list[int], combine: Callable[[tuple[int, ...]], int]) -> Callable[[], object]:
    def run() -> object:
        return Distribution(Counter(combine(r) for r in
                                    itertools.product(*(range(1, s + 1) for s in dice))))
    return run


CASES: list[tuple[str, Callable[[], object] | None, str]] = [
    ("10d6", None, "60,466,176 rolls: not enumerated"),
    ("5d20kh1", brute([20] * 5, max), "3,200,000 rolls"),
    ("2d6+d100", brute([6, 6, 100], sum), "3,600 rolls"),
]


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"{'expression':<10} {'cold':>12} {'cached':>12} {'brute force':>14}  note")
    for expr, slow, note in CASES:
        t_cold = timed(cold(expr), repeat=1 if quick else 5)
        var = parse_dice(expr)
        var.exact()
        t_warm = timed(var.exact, repeat=5 if quick else 50)
        if quick and "3,200,000" in note:
            slow, note = None, note + ": not enumerated (--quick)"
        if slow is not None:
            t_brute = timed(slow, repeat=1)
            assert slow() == cold(expr)(), f"{expr}: brute force disagrees"
            brute_text = f"{t_brute * 1e3:11.2f} ms"
            note += f"; fracas cold is {t_brute / t_cold:,.0f}x faster"
        else:
            brute_text = f"{'—':>14}"
        print(f"{expr:<10} {t_cold * 1e3:9.3f} ms {t_warm * 1e6:9.3f} µs {brute_text}  {note}")


if __name__ == "__main__":
    main()
