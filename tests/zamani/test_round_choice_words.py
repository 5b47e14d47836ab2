"""The choice made as a Turn starts, before the round's initiative (seed 002 · Sacrifice),
in the table's words through ``fracas play`` (a fresh process): headed as a choice before
initiative, not as the combatant's action; the option that gives up no ranks says so;
one rank is "1 rank"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fracas.encounter.session import Session
from fracas.registry.scenarios import load_scenario

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "zamani" / "focus_sacrifice.yaml"


def test_the_sacrifice_is_asked_before_initiative_in_the_tables_words(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("q\n")
    done = subprocess.run([sys.executable, "-m", "fracas", "play", str(EXAMPLE), "--seed", "1",
                           "--script", str(script)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "? Kesi's choice before the round's initiative" in out
    assert "Kesi's action" not in out
    assert "→ Sacrifice nothing" in out  # nothing switched on: no ranks given up
    assert "1 rank — −5 % on rolled skills this Turn, +1 initiative" in out
    assert "2 ranks — " in out and "rank(s)" not in out


def test_the_composed_choice_and_its_log_line_read_sacrifice_nothing() -> None:
    scenario = load_scenario(EXAMPLE)
    people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
    session = Session.start(scenario, seed=1, controllers=people, roll_all=True)
    pending = session.pending
    assert pending is not None and pending.menu is not None
    labels = dict(zip((o.id for o in pending.options), (o.label for o in pending.options),
                      strict=True))
    assert sorted(labels.values()) == sorted([
        "Sacrifice · 1 rank", "Sacrifice · 2 ranks", "Sacrifice · 3 ranks",
        "Sacrifice · 4 ranks", "Sacrifice nothing"])
    nothing = next(k for k, v in labels.items() if v == "Sacrifice nothing")
    events = session.decide({"option": nothing})
    said = [e.said for e in events if type(e).__name__ == "ActionChosen"]
    assert said[0] == "Sacrifice nothing"
