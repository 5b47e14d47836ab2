"""A light start-up: ``fracas --help`` and ``fracas attack`` load only what they need.

Each command runs in a fresh interpreter (as a user runs it) and reports the modules it
imported; no timing here (``benchmarks/startup.py`` measures the seconds).
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import fracas.systems
from fracas import registry

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "matplotlib", "dask", "scipy", "pandas")
SYSTEMS = tuple(sorted(registry.BUILTIN))

RUN = """
import atexit, json, runpy, sys
sys.argv = ["fracas", *json.loads(sys.argv[1])]
atexit.register(lambda: sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules))))
runpy.run_module("fracas", run_name="__main__")
"""


def loaded_by(*argv: str) -> set[str]:
    """The modules a fresh ``fracas ARGV`` imported (it must succeed)."""
    out = subprocess.run([sys.executable, "-c", RUN, json.dumps(argv)], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stderr.rsplit("MODULES ", 1)[1]))


def systems_in(modules: set[str]) -> set[str]:
    return {m.split(".")[2] for m in modules if m.startswith("fracas.systems.")}


def test_help_loads_no_system_no_heavy_library_and_no_rich_or_pydantic() -> None:
    modules = loaded_by("--help")
    assert "typer" in modules  # the probe does see what the command loaded
    assert not [m for m in HEAVY if m in modules]
    assert systems_in(modules) == set()
    assert not {"pydantic", "yaml", "rich.console", "typer.rich_utils"} & modules


def test_attack_loads_its_own_system_only_and_no_heavy_library() -> None:
    modules = loaded_by("attack", "examples/tristat/vampire.yaml")
    assert "fracas.systems.tristat.rules" in modules
    assert not [m for m in HEAVY if m in modules]
    assert systems_in(modules) == {"tristat"}


def test_a_random_attack_loads_numpy_for_its_generator() -> None:
    modules = loaded_by("attack", "examples/tristat/vampire.yaml", "--seed", "3")
    assert "numpy" in modules and systems_in(modules) == {"tristat"}


def test_the_table_of_builtin_systems_matches_their_packages() -> None:
    packages = sorted(info.name for info in pkgutil.iter_modules(fracas.systems.__path__))
    assert sorted(registry.BUILTIN) == packages
    for system_id, package in registry.BUILTIN.items():
        assert registry.get_system(system_id).id == system_id
        assert registry.get_system(system_id).__module__.startswith(package + ".")


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_finding_a_builtin_system_imports_no_other(system_id: str) -> None:
    code = ("import sys; from fracas.registry import get_system; "
            f"get_system({system_id!r}); "
            "print(sorted({m.split('.')[2] for m in sys.modules "
            "if m.startswith('fracas.systems.')}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == repr([system_id])


def test_an_unknown_system_still_lists_every_system_and_the_registered_ones() -> None:
    with pytest.raises(ValueError) as info:
        registry.get_system("nope")
    for system_id in (*SYSTEMS, "testduel"):
        assert system_id in str(info.value)
    assert set(SYSTEMS) | {"testduel"} <= set(registry.systems())


def test_the_table_of_roll_notations_names_every_builtin_system_that_has_one() -> None:
    import importlib

    from fracas.core.system import RuleSystem

    has_notation = {system_id for system_id in registry.BUILTIN
                    if registry.get_system(system_id).parse_roll is not RuleSystem.parse_roll}
    assert set(registry.ROLL_NOTATION) == has_notation
    for system_id, module in registry.ROLL_NOTATION.items():  # the same reading, lighter
        system, reader = registry.get_system(system_id)(), importlib.import_module(module)
        for text in ("3P2A-2C", "2d6", "PPX"):
            assert repr(reader.parse_roll(text)) == repr(system.parse_roll(text))


def test_a_pool_roll_loads_the_system_of_the_notation_only() -> None:
    modules = loaded_by("roll", "3P2A-2C", "--seed", "1")
    assert systems_in(modules) == {"genesys"}
    assert "fracas.systems.genesys.rules" not in modules
    assert systems_in(loaded_by("roll", "2d6+1", "--seed", "1")) == set()


@pytest.mark.parametrize("example", ["c22/dash-square-grid.yaml", "contest/dodge.yaml",
                                     "zamani/area_grenade.yaml", "tristat/called_shot.yaml",
                                     "genesys/ranged_long.yaml", "genesys/autofire.yaml"])
def test_exact_odds_load_their_own_system_only_and_no_numpy(example: str) -> None:
    """(Genesys convolves only a pool of more than SMALL_POOL dice as numpy arrays.)"""
    modules = loaded_by("odds", f"examples/{example}")
    assert systems_in(modules) == {example.split("/")[0]}
    assert not [m for m in HEAVY if m in modules]


QUICK = """
import atexit, sys, threading
from fracas.cli.entry import quick_exit
atexit.register(lambda: print("exit handler ran", flush=True))
done = threading.Event()
if sys.argv[1] == "thread":
    threading.Thread(target=done.wait).start()
print("before", end="")  # unflushed: quick_exit flushes it
quick_exit(sys.argv[2] if sys.argv[2] == "message" else int(sys.argv[2]))
print("; returned", flush=True)
done.set()
"""


@pytest.mark.parametrize(("how", "code", "out", "status"), [
    ("alone", "3", "beforeexit handler ran\n", 3),
    ("thread", "0", "before; returned\nexit handler ran\n", 0),
    ("alone", "message", "before; returned\nexit handler ran\n", 0),
])
def test_a_quick_exit_flushes_runs_the_exit_handlers_once_and_leaves_other_threads_be(
        how: str, code: str, out: str, status: int) -> None:
    """Alone it ends the process at once with the code; with another thread still running
    or a message as the code it returns, and the normal exit follows."""
    done = subprocess.run([sys.executable, "-c", QUICK, how, code], capture_output=True,
                          text=True, check=False)
    assert (done.stdout, done.returncode) == (out, status)


def test_a_finished_command_exits_with_its_code_and_all_its_output() -> None:
    ok = subprocess.run([sys.executable, "-m", "fracas", "attack",
                         "examples/tristat/vampire.yaml", "--json"], cwd=ROOT,
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and json.loads(ok.stdout)["system"] == "tristat"
    bad = subprocess.run([sys.executable, "-m", "fracas", "attack", "nope.yaml"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert (bad.returncode, bad.stderr) == (
        2, "fracas: error: nope.yaml: no such file (allowed: a YAML file)\n")
