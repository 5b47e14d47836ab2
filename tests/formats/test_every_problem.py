"""A scenario with several problems names each of them, with what it allows, so a GM or
designer mends the file in one go (it used to name the first and count the rest); past
six, the rest are counted. Through ``fracas attack FILE`` in a fresh process, and through
the web tracker's API for a request body."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from fracas.web.app import create_app
from tests.formats.conftest import example, write


def attack(path: Path) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "fracas", "attack", str(path)],
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stderr


def test_three_problems_are_each_named_with_what_they_allow(tmp_path: Path) -> None:
    data = example("tristat/vampire")
    entry = data["combatants"][0]
    entry["body"] = "many"
    entry.pop("soul")
    entry["armour"] = entry.pop("armor", {"rating": 1})
    code, err = attack(write(tmp_path, data))
    assert code == 2 and "Traceback" not in err
    first, *others = err.strip().split("; also ")
    assert first.startswith("fracas: error: ") and first.endswith(
        ": combatants[0].armour: unknown key 'armour'; did you mean 'armor'? (allowed: "
        "fields body, mind, soul, skills, defense_value, armor, attributes, weapons, health,"
        " energy, grappled_by, sheathed)")
    assert sorted(others) == ["combatants[0].body: Input should be a valid integer "
                              "(allowed: a whole number)",
                              "combatants[0].soul: this field is required"]
    assert "more problem" not in err


def test_past_six_problems_the_rest_are_counted(tmp_path: Path) -> None:
    data = example("tristat/vampire")
    entry = data["combatants"][0]
    for n in range(8):
        entry[f"extra{n}"] = n
    code, err = attack(write(tmp_path, data))
    assert code == 2
    assert err.count("; also ") == 5 and err.rstrip().endswith("; and 2 more problems")
    assert "unknown key 'extra0'" in err and "unknown key 'extra5'" in err
    assert "extra6" not in err


def test_a_request_body_names_every_problem(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 't.sqlite3'}")
    with TestClient(app) as client:
        r = client.post("/api/encounters", json={"title": 5, "scenario": "x", "nope": 1})
    assert r.status_code == 422, r.text
    told = r.json()["error"].split("; also ")
    assert len(told) == 3 and "more problem" not in r.json()["error"]
    assert "nope: Extra inputs are not permitted" in told, told
