"""A number and its noun agree in what people read, through the real commands (fresh
processes): ``1 more round``, ``1 boon``, ``1 event``; never ``round(s)``. Data packs say
a noun's two forms as ``[one|many]`` after the value they agree with
(:func:`fracas.core.words.fill`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fracas.core import words
from fracas.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def fracas(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], capture_output=True,
                          text=True, timeout=300, cwd=ROOT, env={**os.environ, "COLUMNS": "200"})


def test_a_genesys_condition_with_one_round_left_says_one_round(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("gm set kira conditions disoriented:1\n"
                      "gm set kira conditions staggered:2, burning:1:3\nq\n")
    done = fracas("play", str(EXAMPLES / "genesys" / "three-vs-three-fight.yaml"), "--seed",
                  "1", "--script", str(script))
    assert done.returncode == 0, done.stderr
    assert "Kira: conditions none → disoriented (1 more round after this one)" in done.stdout
    assert ("→ staggered (2 more rounds after this one), burning (1 more turn of 3 damage)"
            in done.stdout)
    assert "(s)" not in done.stdout


def test_a_contest_attack_with_one_boon_says_one_boon(tmp_path: Path) -> None:
    dodge = (EXAMPLES / "contest" / "dodge.yaml").read_text(encoding="utf-8")
    dodge = "\n".join(line for line in dodge.splitlines() if not line.startswith("dice:"))
    one = tmp_path / "one-boon.yaml"
    one.write_text(dodge.replace("options: {defense: dodge}",
                                 "options: {defense: dodge, boons: 1, defender_banes: 2}"),
                   encoding="utf-8")
    done = fracas("advise", str(one))
    assert done.returncode == 0, done.stderr
    assert "1 boon to the attacker" in done.stdout
    assert "2 banes to the defender" in done.stdout
    assert "(s)" not in done.stdout


def test_a_log_cut_after_one_event_says_one_event_and_one_turn(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    done = fracas("fight", str(EXAMPLES / "tristat" / "duel-fight.yaml"), "--seed", "1",
                  "--log", str(log))
    assert done.returncode == 0, done.stderr
    lines = log.read_text(encoding="utf-8").splitlines()
    turns = [i for i, line in enumerate(lines) if '"kind": "turn"' in line
             or '"kind":"turn"' in line]
    cut = tmp_path / "cut.jsonl"  # the first turn whole, then one event of the second
    cut.write_text("\n".join(lines[:turns[0] + 2]) + "\n", encoding="utf-8")
    done = fracas("replay", str(cut))
    assert done.returncode == 0, done.stderr
    assert "turn 2 is incomplete (1 event dropped)); replaying its 1 whole turn" in done.stderr
    assert "(s)" not in done.stderr
    done = fracas("replay", str(cut), "--undo", "2")
    assert done.returncode == 2 and "cannot undo 2 turns: the log holds 1" in done.stderr


def test_a_nouns_two_forms_agree_with_the_value_before_them() -> None:
    fill = words.fill
    assert fill("{0} more [round|rounds] after this one", ["1"]) == "1 more round after this one"
    assert fill("{0} more [turn|turns] of {1} damage", [2, 1]) == "2 more turns of 1 damage"
    assert fill("{value} [boon|boons]", value=1) == "1 boon"
    assert fill("{value} [boon|boons]", value=0) == "0 boons"
    assert fill("−{value} [rank|ranks], [dim]kept[/]", value=1) == "−1 rank, [dim]kept[/]"


def test_a_pair_of_forms_before_any_value_is_refused_naming_the_entry() -> None:
    path = Path("systems/contest/data/words.yaml")
    with pytest.raises(InputError) as err:
        words.load_words(path, {"options": {"boons": {"label": "[boon|boons]: {value}"}}})
    text = str(err.value)
    assert str(path) in text and "options.boons.label" in text and "[boon|boons]" in text
