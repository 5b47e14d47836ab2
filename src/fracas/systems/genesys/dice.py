"""The six narrative dice, their symbols, pool specifications and pool results.

Symbols (one letter each, case-insensitive): ``s`` success, ``a`` advantage,
``t`` triumph (also counts as a success), ``f`` failure, ``h`` threat, ``d``
despair (also counts as a failure). Dice (one capital letter each): ``P``
proficiency, ``A`` ability, ``B`` boost, ``C`` challenge, ``D`` difficulty,
``S`` setback. The faces are data (``data/dice.yaml``).

>>> PoolSpec.parse("PPAAB-CCDS").notation()
'PPAAB-CCDS'
>>> Symbols.parse("3s a T ff h").cancel()
PoolResult(successes=2, advantage=0, triumphs=1, despairs=0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from fracas.errors import InputError

SYMBOL_LETTERS = "satfhd"  # the order raw symbols are written in
SYMBOL_NAMES = {"s": "success", "a": "advantage", "t": "triumph", "f": "failure",
                "h": "threat", "d": "despair"}
POSITIVE_SYMBOLS = frozenset("sat")
DIE_ORDER = ("proficiency", "ability", "boost", "challenge", "difficulty", "setback")
DIE_LETTERS = {"proficiency": "P", "ability": "A", "boost": "B", "challenge": "C",
               "difficulty": "D", "setback": "S"}
MAX_DICE = 100  # per kind, in a pool typed by a user


class DieFaces(BaseModel):
    """One die of ``data/dice.yaml``: its letter, sign and faces."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    letter: str
    positive: bool
    faces: tuple[str, ...]

    @field_validator("faces")
    @classmethod
    def _symbols_only(cls, faces: tuple[str, ...]) -> tuple[str, ...]:
        for face in faces:
            bad = set(face) - set(SYMBOL_LETTERS)
            if bad:
                raise ValueError(f"face {face!r} has unknown symbols {sorted(bad)}")
        return faces

    def vector(self, face: str) -> tuple[int, int, int, int]:
        """(net successes, net advantage, triumphs, despairs) of one face."""
        s = face.count("s") + face.count("t") - face.count("f") - face.count("d")
        return (s, face.count("a") - face.count("h"), face.count("t"), face.count("d"))

    def kernel(self) -> tuple[tuple[tuple[int, int, int, int], int], ...]:
        """Distinct face vectors with how many faces show each."""
        counts: dict[tuple[int, int, int, int], int] = {}
        for face in self.faces:
            v = self.vector(face)
            counts[v] = counts.get(v, 0) + 1
        return tuple(counts.items())


@cache
def die_faces() -> dict[str, DieFaces]:
    """The six dice, read once from ``data/dice.yaml`` (a bad file names the die)."""
    from fracas.core.scenario import read_yaml

    path = Path(__file__).parent / "data" / "dice.yaml"
    data = read_yaml(path)
    out = {}
    for name in DIE_ORDER:
        try:
            die = DieFaces.model_validate(data[name])
        except (KeyError, TypeError):
            raise InputError(f"the die {name!r} is missing", file=str(path),
                             allowed=", ".join(DIE_ORDER)) from None
        except ValidationError as err:
            raise InputError(str(err.errors()[0]["msg"]), file=str(path), path=name) from None
        signs = POSITIVE_SYMBOLS if die.positive else set(SYMBOL_LETTERS) - POSITIVE_SYMBOLS
        if any(set(face) - signs for face in die.faces):
            raise InputError("a positive die shows only s/a/t, a negative one only f/h/d",
                             file=str(path), path=name)
        out[name] = die
    return out


@dataclass(frozen=True, order=True)
class PoolResult:
    """A pool's result after cancellation (seed 004 · Step 3).

    ``successes`` is net successes (triumphs count as successes, despairs as
    failures; negative means net failures), ``advantage`` is net advantage
    (negative means net threat), ``triumphs`` and ``despairs`` are never
    cancelled. ``symbols`` is what the dice showed when a person typed it (not
    part of the value: two rolls with the same net result are equal).
    """

    successes: int
    advantage: int
    triumphs: int = 0
    despairs: int = 0
    symbols: str | None = field(default=None, compare=False)

    def __repr__(self) -> str:
        return (f"PoolResult(successes={self.successes}, advantage={self.advantage}, "
                f"triumphs={self.triumphs}, despairs={self.despairs})")

    @property
    def success(self) -> bool:
        """The check succeeds with at least one net success."""
        return self.successes >= 1

    @property
    def threat(self) -> int:
        return max(0, -self.advantage)

    def describe(self) -> str:
        """``2 successes, 1 advantage, 1 triumph`` in words."""
        return _describe(self.successes, self.advantage, self.triumphs, self.despairs)

    def key(self) -> tuple[int, int, int, int]:
        return (self.successes, self.advantage, self.triumphs, self.despairs)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


@dataclass(frozen=True)
class Symbols:
    """The symbols a pool showed before cancellation (what a person reads off the dice)."""

    s: int = 0
    a: int = 0
    t: int = 0
    f: int = 0
    h: int = 0
    d: int = 0

    @classmethod
    def parse(cls, text: str) -> Symbols:
        """Letters (``ss a T``), counts (``2s1a1t``) or both; ``-``/``blank`` for none."""
        cleaned = text.strip().lower()
        if cleaned in ("", "-", "blank", "none", "nothing"):
            return cls()
        counts = dict.fromkeys(SYMBOL_LETTERS, 0)
        pos = 0
        for match in re.finditer(r"\s*(\d*)\s*([a-z])\s*,?", cleaned):
            if match.start() != pos or match.group(2) not in counts:
                raise ValueError(f"unknown symbol at {text[match.start():].strip()!r}")
            number = match.group(1)
            counts[match.group(2)] += int(number) if number else 1
            pos = match.end()
        if pos != len(cleaned):
            raise ValueError(f"unknown symbol at {text[pos:].strip()!r}")
        return cls(**counts)

    def text(self) -> str:
        """Canonical form: ``sss aa t ff h`` (``-`` for none)."""
        groups = [letter * getattr(self, letter) for letter in SYMBOL_LETTERS
                  if getattr(self, letter)]
        return " ".join(groups) or "-"

    def cancel(self) -> PoolResult:
        """Cancel success against failure and advantage against threat (seed 004 · Step 3)."""
        return PoolResult(self.s + self.t - self.f - self.d, self.a - self.h, self.t, self.d,
                          symbols=self.text())


@dataclass(frozen=True, order=True)
class PoolSpec:
    """How many of each die a pool has."""

    proficiency: int = 0
    ability: int = 0
    boost: int = 0
    challenge: int = 0
    difficulty: int = 0
    setback: int = 0

    def __post_init__(self) -> None:
        for name in DIE_ORDER:
            if getattr(self, name) < 0:
                raise ValueError(f"a pool cannot have {getattr(self, name)} {name} dice")

    @classmethod
    def parse(cls, text: str) -> PoolSpec:
        """``PPAAB-CCDS``, ``2P2A1B-2C1D1S`` or ``5P 5A 2B vs 4C 2D 2S``."""
        cleaned = re.sub(r"\s+|-|vs|\+", " ", text.strip())
        letters = {v: k for k, v in DIE_LETTERS.items()}
        counts = dict.fromkeys(DIE_ORDER, 0)
        pos = 0
        compact = cleaned.replace(" ", "")
        for match in re.finditer(r"(\d*)([A-Za-z])", compact):
            if match.start() != pos or match.group(2) not in letters:
                raise ValueError(f"unknown die at {compact[match.start():]!r}")
            n = int(match.group(1)) if match.group(1) else 1
            counts[letters[match.group(2)]] += n
            pos = match.end()
        if pos != len(compact) or not compact:
            raise ValueError("expected dice letters P A B C D S")
        spec = cls(**counts)
        for name in DIE_ORDER:
            if getattr(spec, name) > MAX_DICE:
                raise ValueError(f"at most {MAX_DICE} {name} dice")
        return spec

    def count(self, name: str) -> int:
        value: int = getattr(self, name)
        return value

    def notation(self) -> str:
        """``PPAAB-CCDS``; counts past 4 as ``5P``."""
        return _notation(self)

    def describe(self) -> str:
        """``2 proficiency, 1 ability, 2 difficulty`` in words."""
        parts = [f"{self.count(n)} {n}" for n in DIE_ORDER if self.count(n)]
        return ", ".join(parts) or "no dice"

    def sides_total(self) -> int:
        """The number of equally likely ways the dice can fall (product of the sides)."""
        total = 1
        for name, die in die_faces().items():
            total *= len(die.faces) ** self.count(name)
        return total

    def dice(self) -> int:
        return sum(self.count(n) for n in DIE_ORDER)


@lru_cache(maxsize=1024)
def _notation(spec: PoolSpec) -> str:
    """A pool's notation, written once per pool (every attack with it shows it)."""
    def part(names: tuple[str, ...]) -> str:
        out = ""
        for name in names:
            n = spec.count(name)
            letter = DIE_LETTERS[name]
            out += letter * n if n <= 4 else f"{n}{letter}"
        return out
    positive, negative = part(DIE_ORDER[:3]), part(DIE_ORDER[3:])
    return f"{positive}-{negative}" if negative else positive or "-"


@lru_cache(maxsize=1024)
def _describe(successes: int, advantage: int, triumphs: int, despairs: int) -> str:
    """A result in words, written once per result (attacks meet the same ones again)."""
    parts = []
    if successes > 0:
        parts.append(_count(successes, "net success", "net successes"))
    elif successes < 0:
        parts.append(_count(-successes, "net failure", "net failures"))
    else:
        parts.append("no net success")
    if advantage > 0:
        parts.append(_count(advantage, "net advantage", "net advantage"))
    elif advantage < 0:
        parts.append(_count(-advantage, "net threat", "net threat"))
    if triumphs:
        parts.append(_count(triumphs, "triumph", "triumphs"))
    if despairs:
        parts.append(_count(despairs, "despair", "despairs"))
    return ", ".join(parts)

