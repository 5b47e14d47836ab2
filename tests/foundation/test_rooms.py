"""Rooms with doors (issue 33): a module's private names stay inside it, no function is
too long to read at once, and the RuleSystem protocol is documented in full.

ruff's SLF001 (a private member reached through another object) and PLC2701 (a private
name imported) run on src/ in ``make test``; PLC2701 lets a package import its own
private names, so inside fracas the import half is checked here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from fracas.core.system import RuleSystem

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
MOST_LINES = 80  # a function's lines, from its ``def`` to its last line


def long_functions(root: Path) -> list[str]:
    """Every function or method under ``root`` longer than :data:`MOST_LINES`, named
    with its file, line and length (nested functions count on their own and in their
    enclosing one)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MOST_LINES:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} "
                                 f"({lines} lines)")
    return found


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


def test_no_function_in_src_is_over_eighty_lines() -> None:
    assert long_functions(SRC) == []


def test_a_long_function_is_named_with_its_file_line_and_length(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MOST_LINES))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(f"def short():\n    return 1\n\n\n"
                                           f"def long():\n{body}\n")
    assert long_functions(tmp_path) == [f"pkg/m.py:5 long ({MOST_LINES + 1} lines)"]


def public_members(cls: type) -> set[str]:
    """The public names a class defines or declares (methods, properties, class
    attributes, annotations without a value), inherited from object left out."""
    names = {n for n in dir(cls) if not n.startswith("_")} - set(dir(object))
    for klass in cls.__mro__:
        names |= {n for n in getattr(klass, "__annotations__", {}) if not n.startswith("_")}
    return names


def missing_from(page: str, names: set[str]) -> list[str]:
    """The names not given on ``page`` as code: `name` or `name(...)`."""
    return sorted(n for n in names if not re.search(rf"`{re.escape(n)}[`(]", page))


def test_every_public_member_of_rulesystem_is_on_the_adding_a_system_page() -> None:
    page = (ROOT / "docs" / "adding-a-system.md").read_text()
    members = public_members(RuleSystem)
    assert len(members) > 40  # the class attributes declared without a value included
    assert missing_from(page, members) == []
    import fracas.core.system as module  # its docstring groups them the same way

    assert missing_from((module.__doc__ or "").replace("``", "`").replace(":meth:", "")
                        .replace(":attr:", ""), members) == []


def test_a_member_missing_from_the_page_is_named() -> None:
    class Grown(RuleSystem):
        new_hook: int = 0

        def another(self) -> None: ...

    page = "`id` and `another(x)`"
    assert "new_hook" in missing_from(page, public_members(Grown))
    assert "another" not in missing_from(page, public_members(Grown))
    assert "id" not in missing_from(page, public_members(Grown))
