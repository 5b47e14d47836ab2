"""Forging a log as a person could: edit one value of one line, then recompute the hash
chain from there (the chain alone detects damage, not forgery)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fracas.encounter.log import CHAIN_START, _digest


def rehash(path: Path, line: int, edit: Any) -> None:
    """Apply ``edit(data)`` (it changes the record's data in place) to line ``line``
    (from 1) of the log at ``path`` and recompute every hash from there."""
    items = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]
    edit(items[line - 1]["data"])
    previous = CHAIN_START
    for item in items:
        item["hash"] = previous = _digest(previous, item["seq"], item["kind"], item["data"])
    path.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items),
                    encoding="utf-8")
