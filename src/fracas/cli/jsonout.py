"""The envelope of every ``--json`` output: a ``"schema"`` name and version first.

``{"schema": "fracas.attack/1", ...}``: a tool checks the name and version before reading
the rest; a change that breaks a reader bumps the version (docs/json.md). Exact
probabilities are strings (``"35/216"``) and each output that has them also gives them as
floats (:func:`with_floats`).
"""

from __future__ import annotations

import json
from typing import Any

import typer

VERSION = 1


def stamped(kind: str, data: Any) -> dict[str, Any]:
    """``data`` (a mapping, or a list put under ``kind``) with the schema name first."""
    body = dict(data) if isinstance(data, dict) else {kind: data}
    body.pop("schema", None)
    return {"schema": f"fracas.{kind}/{VERSION}", **body}


def print_json(kind: str, data: Any) -> None:
    """Print ``data`` as the ``--json`` output of command ``kind``."""
    typer.echo(json.dumps(stamped(kind, data), indent=2, ensure_ascii=False))


def with_floats(data: dict[str, Any], exact_keys: tuple[str, ...]) -> dict[str, Any]:
    """``data`` plus ``"floats"``: the exact values under ``exact_keys`` as floats."""
    from fracas.odds.text import as_float

    return {**data, "floats": {k: as_float(data[k]) for k in exact_keys if k in data}}
