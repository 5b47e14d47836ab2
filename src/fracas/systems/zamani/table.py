"""The action table as data: load, validate and look up (table default · Action table).

A table has rows of margin bands (the attack roll's target minus the roll) and
columns of defense ranks; each cell is a result code: a grade ``A`` (avoided),
``L`` (light), ``M`` (medium), ``H`` (heavy), ``X`` (extreme) or ``C`` (critical),
optionally followed by strike effects ``D`` (disarm), ``$`` (limb/joint strike),
``P`` (knocked prone) and ``R`` (bypasses armor).

A table is given as YAML (``columns:`` lower defense ranks, ``rows:`` margin ->
codes) or CSV (a header ``margin,0-2,3-4,...`` then one line per margin band).
Every cell must be a known code (an error names the row and the column); results
that get worse with more margin or better with more defense are *warnings*.

>>> t = load_action_table("default")
>>> t.lookup(32, 5)
(3, 2, 'L')
>>> parse_code("XD").effects
('disarm',)
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from fracas.errors import InputError

GRADES = {"A": "avoided", "L": "light", "M": "medium", "H": "heavy", "X": "extreme",
          "C": "critical"}
GRADE_ORDER = "ALMHXC"
EFFECTS = {"D": "disarm", "$": "limb", "P": "prone", "R": "armor"}
EFFECT_WORDS = {"disarm": "disarm", "limb": "limb/joint strike", "prone": "knocked prone",
                "armor": "bypasses armor"}
CODE_HELP = "A, L, M, H, X or C, optionally followed by D, $, P and/or R (each once; not after A)"
WHERE = "rules.action_table"
_SHORT_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,19}$")
_LABEL = re.compile(r"^\s*(\d+)\s*(?:(\+)|-\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Code:
    """A parsed result code: its grade letter, the grade's name and its strike effects."""

    code: str
    grade: str
    effects: tuple[str, ...]

    @property
    def name(self) -> str:
        return GRADES[self.grade]

    @property
    def bypasses_armor(self) -> bool:
        return "armor" in self.effects

    def meaning(self) -> str:
        words = [GRADES[self.grade]] + [EFFECT_WORDS[e] for e in self.effects]
        return ", ".join(words)


def parse_code(text: object) -> Code:
    """A result code, or ValueError saying why it is not one."""
    if not isinstance(text, str) or not text.strip():
        what = "an empty cell" if isinstance(text, str) or text is None else \
            f"a {type(text).__name__}"
        raise ValueError(f"{what} is not a result code")
    code = text.strip()
    if len(code) > 1 + len(EFFECTS):  # never echo a long cell: it may be any file's text
        raise ValueError(f"a cell of {len(code)} characters is not a result code")
    grade, rest = code[0], code[1:]
    if grade not in GRADES:
        raise ValueError(f"{code!r} is not a result code ({grade!r} is no grade)")
    if grade == "A" and rest:
        raise ValueError(f"{code!r} is not a result code (an avoided attack has no strike effect)")
    effects: list[str] = []
    for ch in rest:
        if ch not in EFFECTS:
            raise ValueError(f"{code!r} is not a result code ({ch!r} is no strike effect)")
        if EFFECTS[ch] in effects:
            raise ValueError(f"{code!r} is not a result code ({ch!r} given twice)")
        effects.append(EFFECTS[ch])
    return Code(code, grade, tuple(effects))


def band_labels(bounds: Sequence[int]) -> tuple[str, ...]:
    """Labels of bands starting at ``bounds``: ``0-9``, ``10-19``, ..., ``90+``."""
    out = []
    for i, lo in enumerate(bounds):
        if i + 1 == len(bounds):
            out.append(f"{lo}+")
        else:
            hi = bounds[i + 1] - 1
            out.append(str(lo) if hi == lo else f"{lo}-{hi}")
    return tuple(out)


@dataclass(frozen=True)
class ActionTable:
    """A validated action table (immutable); ``warnings`` lists non-monotone results."""

    name: str
    source: str
    margins: tuple[int, ...]  # lower bound of each row's margin band, ascending from 0
    defenses: tuple[int, ...]  # lower bound of each column's defense ranks, ascending from 0
    cells: tuple[tuple[str, ...], ...]
    warnings: tuple[str, ...] = ()

    @property
    def row_labels(self) -> tuple[str, ...]:
        return band_labels(self.margins)

    @property
    def column_labels(self) -> tuple[str, ...]:
        return band_labels(self.defenses)

    def row_of(self, margin: int) -> int:
        return max(i for i, lo in enumerate(self.margins) if lo <= max(margin, 0))

    def column_of(self, defense: int) -> int:
        return max(i for i, lo in enumerate(self.defenses) if lo <= max(defense, 0))

    def to_mapping(self) -> dict[str, Any]:
        """The table as an inline ``rules.action_table`` (what :func:`table_from_mapping`
        reads back to an equal table)."""
        return {"name": self.name, "columns": list(self.defenses),
                "rows": {m: list(row) for m, row in zip(self.margins, self.cells, strict=True)}}

    def lookup(self, margin: int, defense: int) -> tuple[int, int, str]:
        """(row, column, code) for a successful roll's margin against defense ranks."""
        r, c = self.row_of(margin), self.column_of(defense)
        return r, c, self.cells[r][c]


def _bound(label: object, what: str) -> tuple[int, int | None]:
    """The lower (and upper, if given) bound of a band label: 30, "30-39", "90+"."""
    if isinstance(label, int) and not isinstance(label, bool):
        return label, None
    m = _LABEL.match(str(label))
    if not m:
        raise ValueError("is not a band (write 30, 30-39 or 90+)")  # label not echoed
    lo = int(m.group(1))
    hi = int(m.group(3)) if m.group(3) else None
    if hi is not None and hi < lo:
        raise ValueError(f"({lo}-{hi}) ends before it starts")
    return lo, hi


def _bounds(labels: Sequence[object], what: str, source: str) -> tuple[int, ...]:
    pairs = []
    for i, label in enumerate(labels, 1):
        try:
            pairs.append(_bound(label, what))
        except ValueError as err:
            raise InputError(f"action table {source}: {what} {i} {err}", path=WHERE) from None
    if not pairs:
        raise InputError(f"action table {source}: no {what}s", path=WHERE)
    if pairs[0][0] != 0:
        raise InputError(f"action table {source}: the first {what} must start at 0, "
                         f"not {pairs[0][0]}", path=WHERE)
    for i in range(1, len(pairs)):
        if pairs[i][0] <= pairs[i - 1][0]:
            raise InputError(f"action table {source}: {what}s must go up: {what} {i + 1} "
                             f"starts at {pairs[i][0]}", path=WHERE)
        hi = pairs[i - 1][1]
        if hi is not None and hi != pairs[i][0] - 1:
            raise InputError(f"action table {source}: {what} {i} ends at {hi} but "
                             f"{what} {i + 1} starts at {pairs[i][0]}", path=WHERE)
    return tuple(lo for lo, _ in pairs)


def build_table(name: str, source: str, margins: Sequence[object],
                defenses: Sequence[object], rows: Sequence[Sequence[object]]) -> ActionTable:
    """Validate a table's bands and every cell; collect monotonicity warnings."""
    m = _bounds(margins, "margin row", source)
    d = _bounds(defenses, "defense column", source)
    rlabels, clabels = band_labels(m), band_labels(d)
    cells: list[tuple[str, ...]] = []
    codes: list[list[Code]] = []
    for r, row in enumerate(rows):
        where = f"action table {source}: row {r + 1} (margin {rlabels[r]})"
        if len(row) != len(d):
            raise InputError(f"{where} has {len(row)} results for {len(d)} defense columns",
                             path=WHERE, allowed=f"{len(d)} result codes")
        parsed = []
        for c, cell in enumerate(row):
            try:
                parsed.append(parse_code(cell))
            except ValueError as err:
                raise InputError(f"{where}, column {c + 1} (defense {clabels[c]}): {err}",
                                 path=WHERE, allowed=CODE_HELP) from None
        codes.append(parsed)
        cells.append(tuple(p.code for p in parsed))
    warnings = []
    for r in range(len(codes)):
        for c in range(len(d)):
            here = GRADE_ORDER.index(codes[r][c].grade)
            if r and here < GRADE_ORDER.index(codes[r - 1][c].grade):
                warnings.append(f"defense {clabels[c]}: margin {rlabels[r]} gives "
                                f"{codes[r][c].code}, worse than margin {rlabels[r - 1]} "
                                f"({codes[r - 1][c].code})")
            if c and here > GRADE_ORDER.index(codes[r][c - 1].grade):
                warnings.append(f"margin {rlabels[r]}: defense {clabels[c]} gives "
                                f"{codes[r][c].code}, better than defense {clabels[c - 1]} "
                                f"({codes[r][c - 1].code})")
    return ActionTable(name, source, m, d, tuple(cells), tuple(warnings))


def table_from_mapping(data: object, source: str) -> ActionTable:
    """A table given as a mapping: ``name``, ``columns`` (defense bands) and ``rows``
    (margin band -> one code per column)."""
    if not isinstance(data, Mapping):
        raise InputError(f"action table {source}: must be a mapping with columns: and rows:",
                         path=WHERE, allowed="name, columns, rows")
    unknown = set(data) - {"name", "columns", "rows"}
    if unknown:
        key = sorted(map(str, unknown))[0]
        shown = repr(key) if _SHORT_WORD.match(key) else "(not a table key)"
        raise InputError(f"action table {source}: unknown key {shown}; not an action table",
                         path=WHERE, allowed="name, columns, rows")
    columns, rows = data.get("columns"), data.get("rows")
    if not isinstance(columns, list):
        raise InputError(f"action table {source}: columns must be a list of defense bands",
                         path=WHERE, allowed="e.g. [0, 3, 5, 7, 9, 11] or ['0-2', '3-4', ...]")
    if not isinstance(rows, Mapping):
        raise InputError(f"action table {source}: rows must map a margin band to its results",
                         path=WHERE, allowed="e.g. {0: [L, A, A], 10: [M, L, A]}")
    body = []
    for key, value in rows.items():
        if not isinstance(value, list):
            raise InputError(f"action table {source}: row {key!r} must be a list of codes",
                             path=WHERE, allowed=CODE_HELP)
        body.append(value)
    return build_table(str(data.get("name") or source), source, list(rows), columns, body)


def table_from_csv(text: str, source: str) -> ActionTable:
    """A table in CSV: header ``margin,<defense bands...>``, then ``<margin band>,<codes...>``."""
    lines = [row for row in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in row)]
    if len(lines) < 2:
        raise InputError(f"action table {source}: needs a header line and at least one row",
                         path=WHERE, allowed="margin,0-2,3-4,... then 0-9,L,A,...")
    header, body = lines[0], lines[1:]
    if header[0].strip().lower() != "margin":  # say what is wrong, never echo the line
        raise InputError(f"action table {source}: not an action table CSV (its first line must "
                         "start with `margin,` and then name the defense columns)", path=WHERE,
                         allowed="margin,0-2,3-4,... then 0-9,L,A,...")
    return build_table(source, source, [row[0] for row in body], header[1:],
                       [row[1:] for row in body])


ALLOWED_FILE = ("default, an inline table, or a .yaml/.yml/.csv file in the scenario's folder "
                "or below, as a relative path (no absolute path, ~ or ..)")


NO_FOLDER = ("default or an inline table (rules.action_table: {columns: [0, 4, 8], rows: "
             "{0: [L, A, A], 20: [M, L, A]}})")


def resolve_table_file(spec: object, folder: Path | None) -> object:
    """``spec`` (a scenario's ``rules.action_table``) with a file name made absolute against
    the scenario's ``folder``; InputError for an absolute path, ``~``, ``..`` or a symlink
    leading out of the folder, and for any file name when there is no folder (a scenario
    sent to ``fracas serve``). ``default`` and inline tables are returned unchanged."""
    if not isinstance(spec, str) or spec == "default":
        return spec
    if folder is None:
        raise InputError(f"action table {spec!r}: a scenario sent to the server has no folder, "
                         "so it cannot name a table file (the server reads no files for it)",
                         path=WHERE, allowed=NO_FOLDER)
    given = Path(spec)
    reason = None
    if spec.startswith("~"):
        reason = "a path starting with ~ is not allowed"
    elif given.is_absolute() or spec.startswith(("/", "\\")):
        reason = "an absolute path is not allowed"
    elif ".." in given.parts or ".." in spec.replace("\\", "/").split("/"):
        reason = "a path with .. is not allowed"
    else:
        base = folder.resolve()
        real = (base / given).resolve()
        if not real.is_relative_to(base):
            reason = "it leads out of the scenario's folder (through a symbolic link)"
    if reason:
        raise InputError(f"action table {spec!r}: {reason}", path=WHERE, allowed=ALLOWED_FILE)
    return str(real)


def load_action_table(spec: str | Mapping[str, Any]) -> ActionTable:
    """The table named by ``spec``: ``default`` (the shipped table), a file path (YAML or
    CSV; a scenario's file is first resolved by :func:`resolve_table_file`) or an inline
    mapping."""
    if isinstance(spec, Mapping):
        return table_from_mapping(spec, "(inline)")
    return _load_file(spec)


@cache
def _load_file(spec: str) -> ActionTable:
    from fracas.core.scenario import read_yaml

    if spec == "default":
        path = Path(__file__).parent / "data" / "action_table.yaml"
    else:
        path = Path(spec).expanduser()
    suffix = path.suffix.lower()
    if suffix not in (".yaml", ".yml", ".csv"):
        raise InputError(f"action table {spec!r}: use a .yaml, .yml or .csv file", path=WHERE,
                         allowed="default, a .yaml/.csv file, or an inline table")
    if not path.is_file():
        raise InputError(f"action table {spec!r}: no such file", path=WHERE,
                         allowed=ALLOWED_FILE)
    if suffix == ".csv":
        return table_from_csv(path.read_text(encoding="utf-8"), str(spec))
    try:
        data = read_yaml(path)
    except InputError as err:
        raise InputError(f"action table {spec}: {err.message}", path=WHERE) from None
    return table_from_mapping(data, str(spec))
