"""docs/json.md's examples, produced by the current code.

The page pairs a command (a ```` ``` ```` block holding ``$ fracas ... --json``) with the
```` ```json ```` block after it. :func:`produce` runs the command in-process (in a folder
where ``examples/`` is the repository's); a documented list that ends in ``"..."`` is the
output's list cut short there, and a ``"seconds"`` value is a timing (any number matches).

``python -m tests.formats.jsondoc`` rewrites every JSON block of the page from the code.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "json.md"
PAIR = re.compile(r"```\n\$ (fracas [^\n]+)\n```\n\n```json\n(.*?)\n```", re.S)
CUT = "..."


def pairs(text: str) -> list[tuple[str, str]]:
    """(command line, documented JSON text) for each example of the page."""
    return [(m.group(1), m.group(2)) for m in PAIR.finditer(text)]


@contextlib.contextmanager
def workdir() -> Iterator[Path]:
    """A scratch folder with ``examples`` linked to the repository's, as the cwd."""
    before = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "examples").symlink_to(ROOT / "examples")
        os.chdir(tmp)
        try:
            yield Path(tmp)
        finally:
            os.chdir(before)


def run(command: str) -> tuple[int, str]:
    """Exit code and stdout of ``fracas ...`` run in-process in the current folder."""
    from fracas.cli.app import main

    argv = shlex.split(command)
    out = io.StringIO()
    saved = sys.argv
    sys.argv = argv
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main()
    except SystemExit as done:
        code = int(done.code or 0)
    finally:
        sys.argv = saved
    return code, out.getvalue()


def produce(commands: list[str]) -> list[Any]:
    """The JSON each command prints, run in order in one scratch folder (a later command
    may read a file an earlier one wrote)."""
    outputs = []
    with workdir():
        for command in commands:
            code, out = run(command)
            if code != 0:
                raise AssertionError(f"{command!r} exited {code}")
            outputs.append(json.loads(out) if "--json" in command.split() else None)
    return outputs


def matches(documented: Any, actual: Any, where: str = "$") -> list[str]:
    """Where the documented JSON differs from the actual output (empty: it matches)."""
    if isinstance(documented, list) and documented and documented[-1] == CUT:
        shown = documented[:-1]
        if not isinstance(actual, list) or len(actual) < len(shown):
            return [f"{where}: a list of at least {len(shown)} items expected"]
        actual = actual[: len(shown)]
        documented = shown
    if isinstance(documented, dict) and isinstance(actual, dict):
        if list(documented) != list(actual):
            return [f"{where}: keys {list(documented)} documented, {list(actual)} produced"]
        problems = []
        for key, value in documented.items():
            if key == "seconds" and isinstance(value, int | float):
                if not isinstance(actual[key], int | float):
                    problems.append(f"{where}.seconds: not a number")
                continue
            problems += matches(value, actual[key], f"{where}.{key}")
        return problems
    if isinstance(documented, list) and isinstance(actual, list):
        if len(documented) != len(actual):
            return [f"{where}: {len(documented)} items documented, {len(actual)} produced"]
        return [p for i, (d, a) in enumerate(zip(documented, actual, strict=True))
                for p in matches(d, a, f"{where}[{i}]")]
    return [] if documented == actual else [f"{where}: {documented!r} != {actual!r}"]


def _cut(documented: Any, actual: Any) -> Any:
    """The actual output, cut where the documented one was cut."""
    if isinstance(documented, list) and documented and documented[-1] == CUT \
            and isinstance(actual, list):
        keep = len(documented) - 1
        return [_cut(d, a) for d, a in zip(documented[:keep], actual[:keep], strict=False)] + (
            [CUT] if len(actual) > keep else [])
    if isinstance(documented, dict) and isinstance(actual, dict):
        return {k: _cut(documented.get(k), v) for k, v in actual.items()}
    if isinstance(documented, list) and isinstance(actual, list):
        return [_cut(d, a) for d, a in zip(documented, actual, strict=False)] + actual[
            len(documented):]
    return actual


def rewrite() -> None:
    """Rewrite the page's JSON blocks from the current code (keeping each cut)."""
    text = PAGE.read_text(encoding="utf-8")
    found = pairs(text)
    outputs = produce([command for command, _ in found])
    for (command, old), actual in zip(found, outputs, strict=True):
        if actual is None:
            continue
        new = json.dumps(_cut(json.loads(old), actual), indent=2, ensure_ascii=False)
        text = text.replace(f"$ {command}\n```\n\n```json\n{old}\n```",
                            f"$ {command}\n```\n\n```json\n{new}\n```", 1)
    PAGE.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    rewrite()
