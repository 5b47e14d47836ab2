"""Dice notation: ``2d6``, ``d100``, ``d%``, ``3d20kh1``, ``4d6kl3``, ``2d6+3``, ``d8+d6-1``.

Grammar (spaces allowed between terms)::

    expression := term (("+" | "-") term)*
    term       := [count] "d" (sides | "%") [("kh" | "kl") kept] | number

A bad expression raises :class:`~fracas.errors.DiceSyntaxError` with the
1-based column and what was expected there.

>>> parse_dice("2d6+3").exact().mean()
Fraction(10, 1)
>>> parse_dice("2d6+")
Traceback (most recent call last):
...
fracas.errors.DiceSyntaxError: bad dice expression '2d6+' at column 5: expected a number or a die such as d6, found 'end of input'
"""

from __future__ import annotations

import functools
import math

from fracas.dice.variables import Die, Keep, Pool, Sum, Variable, d, keep, nd
from fracas.errors import DiceSyntaxError

MAX_COUNT = 100
MAX_SIDES = 1000
MAX_CONSTANT = 10**6
MAX_TERMS = 20


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def error(self, expected: str) -> DiceSyntaxError:
        return DiceSyntaxError(self.text, self.pos + 1, expected)

    def skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def number(self, what: str, low: int, high: int) -> int:
        start = self.pos
        while self.peek().isascii() and self.peek().isdigit():
            self.pos += 1
        if start == self.pos:
            raise self.error(what)
        if self.pos - start > len(str(high)) + 2:  # never int() of thousands of digits
            self.pos = start
            raise self.error(f"{what} from {low} to {high}")
        value = int(self.text[start:self.pos])
        if not low <= value <= high:
            self.pos = start
            raise self.error(f"{what} from {low} to {high}")
        return value

    def term(self) -> Variable[int] | int:
        self.skip_spaces()
        ch = self.peek()
        if not (ch.isascii() and ch.isdigit()) and ch.lower() != "d":
            raise self.error("a number or a die such as d6")
        count: int | None = None
        if ch.isdigit():
            count = self.number("a number", 0, MAX_CONSTANT)
            if self.peek().lower() != "d":
                return count
            if not 1 <= count <= MAX_COUNT:
                self.pos -= len(str(count))
                raise self.error(f"a dice count from 1 to {MAX_COUNT}")
        self.pos += 1  # the "d"
        if self.peek() == "%":
            self.pos += 1
            sides = 100
        else:
            sides = self.number("the number of sides (or %)", 1, MAX_SIDES)
        n = count or 1
        if self.text[self.pos:self.pos + 2].lower() in ("kh", "kl"):
            highest = self.text[self.pos + 1].lower() == "h"
            self.pos += 2
            kept = self.number(f"how many dice to keep (1 to {n})", 1, n)
            return keep(n, sides, kept, highest)
        if self.peek().lower() == "k":
            self.pos += 1
            raise self.error("'h' or 'l' after 'k' (keep highest / keep lowest)")
        return nd(n, sides) if n > 1 else d(sides)

    def expression(self) -> Variable[int]:
        parts: list[tuple[int, Variable[int]]] = []
        constant = 0
        sign = 1
        terms = 0
        while True:
            term = self.term()
            terms += 1
            if terms > MAX_TERMS:
                raise self.error(f"at most {MAX_TERMS} terms")
            if isinstance(term, int):
                constant += sign * term
            else:
                parts.append((sign, term))
            self.skip_spaces()
            ch = self.peek()
            if ch == "":
                break
            if ch not in "+-":
                raise self.error("'+', '-' or the end of the expression")
            sign = 1 if ch == "+" else -1
            self.pos += 1
        if len(parts) == 1 and parts[0][0] == 1 and constant == 0:
            return parts[0][1]
        return Sum(tuple(parts), constant, name=self.text.strip().replace(" ", ""))


def parse_dice(text: str) -> Variable[int]:
    """The random variable a dice expression describes (parsed once per text, cached)."""
    if not isinstance(text, str):
        raise DiceSyntaxError(str(text), 1, "a dice expression as text")
    return _parse(text)


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> Variable[int]:
    return _Parser(text).expression()


def exact_cost(var: Variable[int]) -> int:
    """About how many steps the exact distribution of a parsed expression takes to build
    (products of the supports convolved), so that ``--odds`` can refuse before it starts."""
    return _cost(var)[0]


def bounds(var: Variable[int]) -> tuple[int, int]:
    """The least and the most a parsed expression can show (``2d6+1``: 3 to 13), worked
    out from its parts, not from its distribution (``100d100`` answers at once).

    >>> bounds(parse_dice("2d6+1")), bounds(parse_dice("d8-d6")), bounds(parse_dice("100d100"))
    ((3, 13), (-5, 7), (100, 10000))
    """
    if isinstance(var, Die):
        return 1, var.sides
    if isinstance(var, Pool):
        low, high = bounds(var.die)
        return var.count * low, var.count * high
    if isinstance(var, Keep):
        return var.keep, var.keep * var.sides
    if isinstance(var, Sum):
        low = high = var.constant
        for sign, part in var.parts:
            a, b = bounds(part)
            low, high = (low + a, high + b) if sign > 0 else (low - b, high - a)
        return low, high
    dist = var.exact()
    return int(dist.min()), int(dist.max())


def _cost(var: Variable[int]) -> tuple[int, int]:
    """(work, size of the support) of building ``var.exact()``."""
    if isinstance(var, Die):
        return var.sides, var.sides
    if isinstance(var, Pool):
        work, span = _cost(var.die)
        result, base, n = 0, span, var.count  # repeated squaring, as Distribution.repeat
        while n:
            if n & 1:
                work += result * base
                result = base if not result else result + base - 1
            n >>= 1
            if n:
                work += base * base
                base = 2 * base - 1
        return work, result
    if isinstance(var, Sum):
        work, size = 0, 1
        for _sign, part in var.parts:
            part_work, part_size = _cost(part)
            work += part_work + size * part_size
            size += part_size - 1
        return work, size
    if isinstance(var, Keep):
        states = math.comb(var.sides + var.keep - 1, var.keep)
        # each step sorts a tuple of keep + 1 dice
        return states * var.sides * var.count * (var.keep + 1), var.keep * (var.sides - 1) + 1
    return 1, 1
