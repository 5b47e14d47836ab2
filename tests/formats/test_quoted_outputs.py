"""The command outputs quoted in README.md and the docs are what the commands print.

A quoted output is the text after a ``$ fracas ...`` line of a ```` ``` ```` block, up to
the next ``$`` line or the block's end. Each command is run as a user runs it (a fresh
``python -m fracas`` process, stdout a pipe as wide as a wide terminal, in a scratch
folder where ``examples/`` is the repository's), and each quoted line must begin a line of
the real output, in order: a quote may trim a line's end (a rule citation) or leave lines
out (a ``...`` line marks a cut), but every figure it shows is the command's own. Timings
(``1.22 s``) and a page's size in KiB are the only text not compared. The exit status is
checked too: 2 where the quote shows ``fracas: error:``, else 0 (so a run quoted with no
output, a fight saved to a log, must still succeed). docs/json.md's
``--json`` examples have their own test (test_json_docs.py); an interactive session
(``fracas play``) and a run whose point is to take minutes are named in :data:`NOT_RUN`
with the reason.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```\n(.*?)^```", re.S | re.M)
TIMING = re.compile(r"\b\d[\d,]*(\.\d+)? (s|KiB)\b")  # a time, a size: not compared
COMMENT = re.compile(r"\s+# [^┃│]*")  # a shell comment under a command, not a "#" column
WIDTH = 240  # a very wide terminal's: a quote shows whole lines, rule citations and all
NOT_RUN = {
    "play": "an interactive session (tests/encounter/test_play*.py drives it)",
    "--max-seconds 20": "how many points end within its 20 s budget depends on the machine",
}


def quotes() -> list[tuple[str, str, list[str]]]:
    """(page, command, quoted output lines) of every quoted fracas run."""
    found = []
    for page in PAGES:
        if page.name == "json.md":
            continue
        for block in BLOCK.findall(page.read_text(encoding="utf-8")):
            lines = block.splitlines()
            i = 0
            while i < len(lines):
                if not lines[i].startswith("$ fracas "):
                    i += 1
                    continue
                command = lines[i][2:]
                while command.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    command = command[:-1].rstrip() + " " + lines[i].strip()
                command = command.split("  #")[0].strip()
                i += 1
                out = []
                while i < len(lines) and not lines[i].startswith("$ "):
                    if not COMMENT.fullmatch(lines[i]):
                        out.append(lines[i])
                    i += 1
                found.append((str(page.relative_to(ROOT)), command, out))
    return found


QUOTES = quotes()


def skipped(command: str) -> str | None:
    words = command.split()
    if words[1] == "play":
        return NOT_RUN["play"]
    if "--max-seconds 20" in command:
        return NOT_RUN["--max-seconds 20"]
    return None


def _norm(line: str) -> str:
    return TIMING.sub(r"<n> \2", line.rstrip())


def differences(quoted: list[str], printed: list[str]) -> list[str]:
    """Quoted lines that do not begin a printed line in order (empty: the quote holds).

    A quote may begin anywhere in the output; after that, each quoted line begins the
    printed line right after the one before, unless a cut (a ``...`` line) comes between:
    lines are left out only where the quote says so."""
    actual = [_norm(line) for line in printed]
    at = 0
    cut = True  # the quote may begin anywhere
    problems = []
    for line in quoted:
        want = _norm(line)
        if not want.strip():
            continue
        if want.strip().startswith(("...", "…")):  # a cut
            cut = True
            continue
        if not cut and at < len(actual) and actual[at].startswith(want):
            at += 1
            continue
        k = next((j for j in range(at, len(actual)) if actual[j].startswith(want)), None)
        if k is None or not cut:
            problems.append(want if k is None else f"{want}  (lines left out before it "
                                                   "with no '...' cut)")
        if k is not None:
            at = k + 1
        cut = False
    return problems


def test_the_quotes_are_found() -> None:
    commands = [c for _, c, out in QUOTES if out]
    assert any(c.startswith("fracas simulate") for c in commands)
    assert any(c.startswith("fracas attack") for c in commands)
    assert len(commands) >= 10


def test_the_matcher_notices_a_changed_figure() -> None:
    printed = ["a table", " blades │ 32,840 │ 32.84%", " fists  │ 67,160", "done in 1.5 s"]
    assert differences([" blades │ 32,840", "...", "done in 9 s"], printed) == []
    assert differences([" blades │ 32,529"], printed) == [" blades │ 32,529"]
    assert differences([" fists  │ 67,160", " blades │ 32,840"], printed) != []
    assert differences([" blades │ 32,840", "done in 9 s"], printed) != []  # no cut
    assert differences(["a table", "...", "done in 9 s"], printed) == []


def test_the_exit_status_is_the_quote_s() -> None:
    assert expected_exit(["fracas: error: --plot: cannot write the picture"]) == 2
    assert expected_exit([" blades │ 32,840"]) == 0
    assert expected_exit([]) == 0


@pytest.fixture(scope="module")
def scratch() -> object:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "examples").symlink_to(ROOT / "examples")
        yield Path(tmp)


@pytest.mark.parametrize("page,command,quoted", QUOTES,
                         ids=[f"{p}: {c}" for p, c, _ in QUOTES])
def test_each_quoted_output_is_what_the_command_prints(page: str, command: str,
                                                       quoted: list[str],
                                                       scratch: Path) -> None:
    reason = skipped(command)
    if reason is not None:
        assert quoted, f"{command}: nothing quoted to skip"
        return  # not run: see NOT_RUN
    env = {**os.environ, "COLUMNS": str(WIDTH)}
    env["PYTHONPATH"] = str(ROOT / "src")
    done = subprocess.run([sys.executable, "-m", "fracas", *shlex.split(command)[1:]],
                          capture_output=True, text=True, cwd=scratch, env=env, timeout=600)
    printed = (done.stdout + done.stderr).splitlines()
    assert differences(quoted, printed) == [], f"{page}: {command}\n" + "\n".join(printed)
    assert done.returncode == expected_exit(quoted), f"{page}: {command}\n" + "\n".join(
        printed)


def expected_exit(quoted: list[str]) -> int:
    """A quote that shows fracas refusing exits 2; any other quoted run succeeds (even one
    quoted with no output, such as a fight saved to a log)."""
    return 2 if any(line.startswith("fracas: error: ") for line in quoted) else 0
