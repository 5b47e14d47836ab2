"""The floors hold (docs/architecture.md): import contracts, no circles, the hooks that
replace upward imports, small modules."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from fracas import registry

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
LINT = [sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()"]


def _lint(src: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the project's contracts on the package under ``src``."""
    return subprocess.run([*LINT, "--no-logo", "--no-cache", str(ROOT / "pyproject.toml")],
                          cwd=tmp_path, capture_output=True, text=True, check=False,
                          env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})


def test_the_contracts_hold_on_the_package(tmp_path: Path) -> None:
    done = _lint(SRC, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 kept, 0 broken" in done.stdout


@pytest.mark.parametrize(("importer", "imported", "contract"), [
    ("core/model.py", "fracas.analysis.simulate", "Layers point down only"),
    ("systems/c22/rules.py", "fracas.systems.tristat.steps", "independent"),
    ("encounter/state.py", "fracas.encounter.engine", "No import circles"),
])
def test_a_new_wrong_import_breaks_the_build_naming_it(
        tmp_path: Path, importer: str, imported: str, contract: str) -> None:
    copy = tmp_path / "src"
    shutil.copytree(SRC / "fracas", copy / "fracas",
                    ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / "fracas" / importer
    target.write_text(target.read_text() + f"\nimport {imported}  # a wrong import\n")
    done = _lint(copy, tmp_path)
    assert done.returncode == 1
    assert f"{contract}" in done.stdout and "BROKEN" in done.stdout
    module = "fracas." + importer.removesuffix(".py").replace("/", ".")
    assert module in done.stdout or module.rsplit(".", 1)[0].replace("fracas.", ".") in \
        done.stdout


def test_no_module_imports_itself_back_through_others() -> None:
    """No circle between any two modules (module- and function-level imports; imports for
    type checking only left out), at any depth."""
    graph = grimp.build_graph("fracas", exclude_type_checking_imports=True)
    circles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            if graph.chain_exists(importer=imported, imported=module):
                circles.append((module, imported))
    assert circles == []


def test_each_built_in_system_names_its_commands_where_the_registry_lists_them() -> None:
    hooks = {sid: registry.get_system(sid).commands for sid in registry.BUILTIN}
    assert {sid: m for sid, m in hooks.items() if m} == registry.COMMANDS
    for module in registry.COMMANDS.values():
        assert callable(importlib.import_module(module).build_app)


def test_a_system_command_runs_in_a_fresh_process() -> None:
    done = subprocess.run([sys.executable, "-m", "fracas", "zamani", "countdown", "--from",
                           "examples/zamani/duel-fight.yaml", "--json"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert '"schema": "fracas.zamani-countdown/1"' in done.stdout


def test_no_module_is_much_over_six_hundred_lines() -> None:
    long = {str(p.relative_to(SRC)): n for p in SRC.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 650}
    assert long == {}
