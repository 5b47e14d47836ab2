"""A mirror duel (seed 002 · Segment & Initiatives): two characters alike, tied on
initiative, Fitness and Spirit, so the die breaks the tie every round and is rolled again
while they stay tied. The exact odds and the simulation take it in a fresh process, as a
designer runs them; the exact odds give both sides the same chance."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

FIGHTER = {"attributes": {"dexterity": 7, "fitness": 5, "spirit": 4}, "skills": {"swords": 6},
           "wounds": {"max": 12}, "armor": {"absorption": 2},
           "weapons": [{"name": "short sword", "rating": 4, "kind": "melee",
                        "skill": "swords"}]}


def _mirror(tmp_path: Path) -> Path:
    path = tmp_path / "mirror.yaml"
    path.write_text(yaml.safe_dump({
        "system": "zamani", "title": "Mirror duel", "max_rounds": 30,
        "combatants": [{"id": "kofi", "name": "Kofi", "side": "river", **FIGHTER},
                       {"id": "dura", "name": "Dura", "side": "hill", **FIGHTER}]}))
    return path


def _fracas(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], capture_output=True,
                          text=True, timeout=600, env={**os.environ, "COLUMNS": "120"})


def test_exact_odds_of_a_mirror_duel_give_both_sides_the_same_chance(tmp_path: Path) -> None:
    done = _fracas("odds", str(_mirror(tmp_path)), "--fight", "--json")
    assert done.returncode == 0, done.stderr
    outcomes = json.loads(done.stdout)["outcomes"]
    assert outcomes["river"]["exact"] == outcomes["hill"]["exact"]
    assert 0.49 < outcomes["river"]["p"] <= 0.5


def test_a_mirror_duel_simulates_by_every_method(tmp_path: Path) -> None:
    path = str(_mirror(tmp_path))
    for method in ("auto", "steps", "sampled", "fast"):
        done = _fracas("simulate", path, "-n", "300", "--seed", "3", "--json",
                       "--method", method)
        assert done.returncode == 0, f"--method {method}: {done.stderr}"
        assert "Traceback" not in done.stderr
        wins = json.loads(done.stdout)
        assert wins["fights"] == 300, method
