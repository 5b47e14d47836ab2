"""Every command's ``--help`` says what to type in words people read (FILE, N, SECONDS,
SIDE=CHANCE, at least 1), never Python's or Click's type names (``<int range>``, ``{file}``,
``INTEGER``, ``TEXT``, ``x>=1``).

One fresh interpreter prints the help of every command, the system commands mounted as
``fracas`` mounts them, so the app is imported as a user's command imports it."""

from __future__ import annotations

import json
import re
import subprocess
import sys

HELPS = """
import json
from typer.main import get_command
from typer.testing import CliRunner
from fracas import registry
from fracas.cli import app as cli

cli._load_commands()
for system_id, module in sorted(registry.COMMANDS.items()):
    cli._mount(module, system_id, registry.get_system(system_id).title)

def walk(command, path):
    yield path
    if hasattr(command, "list_commands"):
        for name in command.list_commands(None):
            yield from walk(command.get_command(None, name), [*path, name])

runner = CliRunner()
helps = {}
for path in walk(get_command(cli.app), []):
    done = runner.invoke(cli.app, [*path, "--help"], prog_name="fracas")
    helps[" ".join(path)] = [done.exit_code, done.output]
print(json.dumps(helps))
"""

# What Typer and Click print when an option or argument names no metavar: the Python type
# (<int>, <int range>, <path>, list[str]), a required argument in braces ({file}), Click's
# type names (INTEGER RANGE, TEXT, FLOAT, PATH, ...) and bounds as formulas (x>=1).
CODE = re.compile(r"<[a-z]|\{[a-z]|list\[|\b(INTEGER|TEXT|FLOAT|BOOLEAN|FILENAME|DIRECTORY|"
                  r"RANGE)\b|\bPATH\b(?!=)|x\s*[<>]=|<=\s*x")


def all_helps() -> dict[str, tuple[int, str]]:
    done = subprocess.run([sys.executable, "-c", HELPS], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    return {path: (code, text) for path, (code, text) in json.loads(done.stdout).items()}


def test_every_commands_help_names_what_to_type_in_words() -> None:
    helps = all_helps()
    assert {"roll", "attack", "simulate", "play", "sweep", "balance", "serve",
            "zamani countdown", "zamani table"} <= set(helps)
    for path, (code, text) in helps.items():
        assert code == 0, (path, text)
        assert "Usage: fracas" in text, (path, text)
        found = [m.group(0) for m in CODE.finditer(text)]
        assert found == [], (path, found, text)


def test_options_and_arguments_show_their_placeholders_and_bounds_in_words() -> None:
    helps = all_helps()
    assert "Usage: fracas attack [OPTIONS] FILE\n" in helps["attack"][1]
    assert "Usage: fracas play [OPTIONS] [FILE]\n" in helps["play"][1]
    simulate = helps["simulate"][1]
    for shown in ("-n N ", "--seed N ", "--max-seconds SECONDS ", "--max-memory GB ",
                  "--scheduler URL ", "--plot FILE ", "--policy POLICY ", "at least 1]"):
        assert shown in simulate, shown
    assert "--target SIDE=CHANCE " in helps["balance"][1]
    assert "[default: 8000; 0 to 65535]" in helps["serve"][1]
    assert "--die SIDES " in helps["zamani countdown"][1]
