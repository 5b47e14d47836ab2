"""Who rolls which die (issue 34, item 1): by default the players type their own
combatants' dice and fracas rolls the GM side's, saying what it rolled; the GM may type
the GM side's dice too (``--gm-dice typed``, ``gm dice``), per combatant; a combatant a
policy decides for rolls its own dice; logs written before the setting play as before."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from fracas.encounter.session import Session
from fracas.encounter.session_log import load_session
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[2]
DUEL = str(ROOT / "examples" / "tristat" / "duel-fight.yaml")  # Rin against Gorr
CONTEST = str(ROOT / "examples" / "contest" / "duel-fight.yaml")  # Rosa against Grub


def _play(path: str, *args: str, lines: tuple[str, ...] = ()) -> str:
    seed = () if path == "--resume" else ("--seed", "1")
    done = subprocess.run([sys.executable, "-m", "fracas", "play", path, *args, *seed],
                          input="\n".join((*lines, "q")) + "\n", capture_output=True,
                          text=True, timeout=300, cwd=ROOT, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stdout + done.stderr
    return done.stdout


def test_the_player_types_their_dice_and_fracas_rolls_the_gm_sides_saying_what(
        tmp_path: Path) -> None:
    """Rin is the player's: her initiative and her defence are asked; Gorr's initiative and
    attack are rolled by fracas, each told with its result, and never asked."""
    log = tmp_path / "fight.jsonl"
    out = _play(DUEL, "--player", "rin", "--log", str(log),
                lines=("3,4", "", "1", "3 3"))  # Rin's initiative; Gorr attacks; defend
    asked = re.findall(r"^\? (.*)$", out, re.M)
    assert asked[:4] == ["Rin's initiative: 2d6", "Gorr's action",
                         "Rin's reaction to Gorr's attack Rin with brass knuckles",
                         "Rin's defence: 2d6, needs 5 or less"], asked
    assert not any(a.startswith("Gorr's") and "2d6" in a for a in asked), asked
    assert "Rin rolls 2d6 for initiative: 7 (+ Combat Value 4 = 11)" in out
    told = re.search(r"fracas rolls Gorr's attack: 2d6 → (\d+)", out)
    assert told is not None, out
    # told before the player is asked to defend, and the same value the turn reads
    assert out.index(told.group(0)) < out.index("? Rin's defence")
    assert f"Gorr rolls 2d6: {told.group(1)}" in out
    # the log says who rolled each die, and plays back to the same fight
    records = load_session(log).to_records()
    assert records[0]["gm_dice"] == "fracas" and records[0]["players"] == ["rin"]
    by = [(r.get("by"), r.get("owner")) for r in records[1:] if r.get("kind") == "dice"]
    assert by[:2] == [("gm", "rin"), ("fracas", "gorr")], by
    resumed = _play("--resume", str(log))
    assert "? Rin's action" in resumed


def test_the_gm_chooses_to_type_the_gm_sides_dice_at_the_start_or_per_combatant() -> None:
    typed = _play(DUEL, "--player", "rin", "--gm-dice", "typed", lines=("3,4", "5,2"))
    assert "? Gorr's initiative: 2d6" in typed and "fracas rolls" not in typed
    assert "Gorr rolls 2d6 for initiative: 7" in typed
    # one combatant's dice typed, and later rolled by fracas again with gm dice
    one = _play(DUEL, "--gm-dice", "rin=typed", lines=("3,4", "gm dice rin fracas"))
    assert "? Rin's initiative: 2d6" in one and "? Gorr's initiative" not in one
    assert "fracas rolls Rin's dice from now on" in one


def test_gm_dice_mid_fight_hands_the_gm_sides_dice_to_the_table_and_back() -> None:
    """``gm dice typed`` at Gorr's action: his attack die is then asked of the GM."""
    out = _play(DUEL, "--player", "rin", lines=("3,4", "gm dice typed", "", "1", "6,6"))
    assert "the GM side's dice are typed at the table from now on" in out
    assert "? Gorr's attack: 2d6" in out, out[-3000:]
    assert "fracas rolls Gorr's attack" not in out


def test_bad_settings_are_refused_naming_the_option() -> None:
    for args, said in ((("--gm-dice", "sometimes"), "--gm-dice: 'sometimes' is not WHO"),
                       (("--player", "zed"), "--player: no combatant with id 'zed'"),
                       (("--gm-dice", "zed=typed"), "--gm-dice: no combatant with id 'zed'")):
        done = subprocess.run([sys.executable, "-m", "fracas", "play", DUEL, *args],
                              input="q\n", capture_output=True, text=True, timeout=300,
                              cwd=ROOT)
        assert done.returncode != 0 and said in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_a_combatant_a_policy_decides_for_rolls_its_own_dice_even_when_the_gm_types() -> None:
    scenario = load_scenario(CONTEST)
    s = Session.start(scenario, seed=3, controllers={"rosa": "person", "grub": "person"},
                      gm_dice="typed", players=["rosa"])
    assert s.pending is not None and s.pending.who in ("rosa", "grub")
    from fracas.encounter import gm

    gm.set_controller(s, "grub", "aggressive")
    asked = set()
    for _ in range(60):
        p = s.pending
        if p is None:
            break
        asked.add((p.kind, p.who))
        s.decide({"roll": True} if p.kind == "dice" else {"option": p.options[0].id})
    assert ("dice", "grub") not in asked, asked  # his dice: never asked once a policy ran him
    assert any(e.get("by") == "fracas" for e in s.entries)


def test_r_at_a_roll_of_several_peoples_dice_rolls_all_its_gm_side_parts() -> None:
    """A contest's attack with its defence, the GM typing the GM side's dice: the GM's r
    at Grub's attack rolls his part and leaves Rosa's defence to her player; at Rosa's
    attack (the player's part, the GM answering for her) r rolls Grub's defence too."""
    s = Session.start(load_scenario(CONTEST), seed=3, gm_dice="typed", players=["rosa"],
                      controllers={"rosa": "person", "grub": "person"})
    seen = set()
    for _ in range(200):
        p = s.pending
        if p is None or len(seen) == 2:
            break
        if p.kind != "dice" or p.dice is None:
            s.decide({"option": p.options[0].id})
            continue
        rest = [who for _, who in p.dice.rest]
        s.decide({"roll": True}, by="gm")
        q = s.pending
        if p.dice.part and rest == ["rosa"] and p.who == "grub":
            seen.add("grub first")  # his part rolled, hers asked of her
            assert q is not None and q.dice is not None and q.who == "rosa", q
        elif p.dice.part and rest == ["grub"] and p.who == "rosa":
            seen.add("rosa first")  # both rolled at once: the roll is no longer asked
            assert q is None or q.dice is None or not q.dice.part or q.who != "grub", q
    assert seen == {"grub first", "rosa first"}, seen


def test_a_log_without_the_setting_plays_back_as_it_was_written(tmp_path: Path) -> None:
    """A log of the old kind (every die asked, roll_all in its header) replays identically:
    no die is rolled by itself on reading it."""
    scenario = load_scenario(DUEL)
    s = Session.start(scenario, seed=2, roll_all=True,
                      controllers={"rin": "person", "gorr": "person"})
    for _ in range(6):
        p = s.pending
        assert p is not None
        s.decide({"option": p.options[0].id} if p.options else {"roll": True})
    records = s.to_records()
    assert "gm_dice" not in records[0]
    again = Session.from_records(json.loads(json.dumps(records)))
    assert again.entries == s.entries and again.state == s.state
    assert again.gm_dice is None


def test_a_gm_side_part_fracas_rolls_is_told_as_its_owners_roll() -> None:
    """A contest typed at the table: Grub's initiative d20 and his dodges are parts of
    rolls Rosa's player shares; each is told as Grub's own roll (never as the part Rosa is
    asked for), before she is asked for hers."""
    out = _play(CONTEST, "--player", "rosa", lines=("15", "", "1", "12"))
    assert "fracas rolls Grub the Brute's initiative: d20 → 11" in out
    told = "fracas rolls Grub the Brute's dodge against Rosa, roll 1 of 3: d20 → 8"
    assert told in out and out.index(told) < out.index("? Rosa's sword attack on Grub")
    assert "fracas rolls sword attack" not in out and "fracas rolls initiative:" not in out
    assert "Roll 1 · Grub the Brute, dodge: d20 shows 8" in out
