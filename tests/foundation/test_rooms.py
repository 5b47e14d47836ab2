"""Rooms with doors (issue 33): a module's private names stay inside it.

ruff's SLF001 (a private member reached through another object) and PLC2701 (a private
name imported) run on src/ in ``make test``; PLC2701 lets a package import its own
private names, so inside fracas the import half is checked here.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_imports_a_private_name_of_another() -> None:
    crossing = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                crossing += [f"{path.relative_to(SRC)}:{node.lineno} imports {a.name} from "
                             f"{'.' * node.level}{node.module or ''}"
                             for a in node.names if _private(a.name)]
    assert crossing == []
