"""``fracas new-system``: a sixth system really a package away. In fresh processes: the
scaffold is written into a temporary folder, installed with pip (``--target``, on
``PYTHONPATH``), its own generated tests pass (the conformance kit and the identifier
check), and it plays through ``attack``, ``odds``, ``fight``, ``simulate --jobs 2``,
``play --script`` and a whole encounter of ``serve`` with its example listed there; a
second installed package that fails to import (quarantined) leaves all of that working."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from fracas.web.testing import ServerProcess
from tests.foundation.test_plugin_system import dist_info, play_out

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], env: dict[str, str], cwd: Path | None = None,
        stdin: str | None = None) -> str:
    done = subprocess.run(args, capture_output=True, text=True, timeout=600, env=env,
                          cwd=cwd, input=stdin)
    assert done.returncode == 0, (args, done.stdout[-3000:], done.stderr[-3000:])
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The package written by ``fracas new-system duel20`` and a machine where it is
    installed (with a broken package beside it)."""
    top = tmp_path_factory.mktemp("new")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "160"}
    out = run([sys.executable, "-m", "fracas", "new-system", "duel20", str(top / "pkg"),
               "--title", "Duel 20"], env)
    assert "wrote the Duel 20 system" in out and "src/fracas_duel20/rules.py" in out
    site = top / "site"
    run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
         str(site), str(top / "pkg")], env)
    (site / "broken_plugin").mkdir()
    (site / "broken_plugin" / "__init__.py").write_text("raise ImportError('gone')\n",
                                                        encoding="utf-8")
    dist_info(site, "fracas-broken-plugin", "broken = broken_plugin:System")
    installed = {**env, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(site)])}
    return top, installed


def fracas(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    return run([sys.executable, "-m", "fracas", *args], env, stdin=stdin)


def test_the_generated_tests_pass_uninstalled_and_installed(made: tuple[Path, dict[str, str]]
                                                            ) -> None:
    top, installed = made
    bare = {**installed, "PYTHONPATH": str(ROOT / "src")}
    for env in (bare, installed):
        out = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], env,
                  cwd=top / "pkg")
        assert "3 passed" in out, out


def test_the_installed_system_plays_through_every_command(made: tuple[Path, dict[str, str]],
                                                          tmp_path: Path) -> None:
    top, env = made
    listed = json.loads(fracas(env, "systems", "--json"))["systems"]
    mine = next(s for s in listed if s["id"] == "duel20")
    assert (mine["title"], mine["package"]) == ("Duel 20", "fracas-duel20 0.1.0")
    assert any(s["id"] == "broken" and "broken" in s for s in listed)
    examples = top / "site" / "fracas_duel20" / "examples"
    duel, fight = str(examples / "duel.yaml"), str(examples / "duel-fight.yaml")
    attack = json.loads(fracas(env, "attack", duel, "--json"))
    assert (attack["outcome"], attack["damage"]) == ("critical", 14)  # (6 + 1) x 2
    odds = json.loads(fracas(env, "odds", duel, "--json"))
    assert odds["p_hit"] == "3/5"  # d20 + 5 >= 14: 12 faces of 20
    assert "Fight over" in fracas(env, "fight", fight, "--seed", "3")
    runs = [json.loads(fracas(env, "simulate", fight, "-n", "3000", "--seed", "2",
                              "--method", "steps", "--json", "-q", "--jobs", jobs))
            for jobs in ("1", "2")]
    assert runs[0] == runs[1] and runs[0]["fights"] == 3000
    script = tmp_path / "moves.txt"
    script.write_text("\n" * 300, encoding="utf-8")  # the usual choice, every time
    played = fracas(env, "play", fight, "--seed", "4", "--roll-all", "--script", str(script))
    assert "? Ann's action" in played and "Fight over" in played, played[-2000:]
    assert "error" not in played


def test_a_whole_encounter_of_serve_with_its_example_listed(
        made: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    _, env = made
    server = ServerProcess(str(tmp_path / "t.sqlite3"), env=env,
                           args=["--example", "duel20/duel-fight.yaml"]).start()
    try:
        key = server.printed().split("/gm/", 1)[1].split()[0]
        gm = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=server.url, timeout=60) as http:
            listed = http.get("/api/examples").json()
            assert {"duel20/duel.yaml", "duel20/duel-fight.yaml"} <= set(listed)
            assert "Ann and Cid against the bandit chief — Two against one" in http.get(
                "/gm", headers=gm).text
            (mine,) = http.get("/api/encounters", headers=gm).json()
            assert mine["system"] == "duel20"
            view = play_out(http, mine["id"], gm)
            assert view["over"]
    finally:
        server.stop()
