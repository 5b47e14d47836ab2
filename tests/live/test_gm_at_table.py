"""A new GM at the terminal: ``fracas play`` run as a fresh process, fed the lines a GM
types (names from the sheets, labels from the narration, typos), and what it answers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.ptyrun import interrupt, printed

ROOT = Path(__file__).resolve().parents[2]

TRISTAT = "examples/tristat/duel-fight.yaml"
GENESYS = "examples/genesys/duel-fight.yaml"
C22 = "examples/c22/duel-fight.yaml"
CONTEST = "examples/contest/duel-fight.yaml"
ZAMANI = "examples/zamani/duel-fight.yaml"


def _play(path: str, seed: int, *lines: str, args: tuple[str, ...] = ()
          ) -> subprocess.CompletedProcess[str]:
    # the GM types the GM side's dice too (fracas rolls them by default)
    return subprocess.run([sys.executable, "-m", "fracas", "play", path, "--seed", str(seed),
                           "--gm-dice", "typed", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "200"})


def test_gm_commands_take_the_names_on_the_sheets_and_refuse_a_stranger() -> None:
    done = _play(TRISTAT, 1, "3,4", "5,2", "gm hurt Gorr 3", "gm hurt nobody 3",
                 "gm heal GORR 1", "gm cond Gorr blinded 2", "gm auto Rin cautious",
                 "gm hand rin", "s", "q")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Traceback" not in out + done.stderr
    assert "Gorr: health 60 → 57" in out and "Gorr: health 57 → 58" in out
    assert "error (input 4): no combatant 'nobody' (allowed: Rin (rin), " \
           "Gorr (gorr))" in out
    assert "Gorr is blinded for 2 rounds" in out
    assert "fracas decides for Rin from now on (cautious)" in out
    assert "Rin is decided by hand again" in out


def test_gm_set_takes_a_field_by_the_word_the_narration_shows() -> None:
    done = _play(TRISTAT, 1, "3,4", "5,2", "gm set Rin Energy 30", "gm set rin most health 50",
                 "gm set rin Energyx 1", "q")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Rin: Energy 40 → 30" in out and "Rin: most health 45 → 50" in out
    refused = next(line for line in out.splitlines() if line.startswith("error (input 5)"))
    assert "Rin has no value 'Energyx'" in refused
    assert "health, most health, Energy, most Energy" in refused
    assert "max_health" not in refused and "_" not in refused


def test_a_gm_edit_that_ends_the_fight_says_the_fight_is_over() -> None:
    done = _play(TRISTAT, 1, "3,4", "5,2", "gm remove Gorr")
    assert done.returncode == 0, done.stderr
    after = done.stdout.split("> gm remove Gorr", 1)[1]
    assert "Gorr leaves the fight" in after
    assert "Fight over after 1 round: blades win: nobody else can act" in after


def test_undo_with_a_mistyped_count_undoes_nothing() -> None:
    done = _play(TRISTAT, 1, "3,4", "5,2", "u x", "redo y", "u 1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "error (input 3): u: 'x' is not a number of steps" in out
    assert "error (input 4): redo: 'y' is not a number of steps" in out
    # the mistyped lines took nothing back: only the last undo goes back a roll
    assert out.count("undid 1 step") == 1
    assert out.rstrip().splitlines()[-4].startswith("? Gorr's initiative")


def test_a_mistyped_genesys_roll_is_refused_as_a_roll_not_read_as_a_command() -> None:
    done = _play(GENESYS, 3, "s", "a", "1", "", "s s s s s", "q",
                 args=("--control", "gm=person"))
    assert done.returncode == 0, done.stderr
    after = done.stdout.split("> s s s s s", 1)[1]
    assert after.lstrip().startswith("error (input 5): Red's attack on Blue")
    assert "the positive dice cannot show sssss" in after


def test_a_card_not_in_the_deck_is_refused_naming_its_owner_as_on_the_sheet() -> None:
    done = _play(C22, 8, "8c", "9D", "8d", "q", args=("--control", "gm=person"))
    assert done.returncode == 0, done.stderr
    refused = next(line for line in done.stdout.splitlines() if line.startswith("error"))
    assert "9D is not left in Captain Vos's draw pile (allowed: 2H, 4C, 6S, 8D)" in refused
    assert "vos's" not in refused


def test_contest_initiative_says_whose_dice_to_type_and_in_which_order() -> None:
    done = _play(CONTEST, 3, "17 2 5", "17", "2", "q")
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())  # the prompt as one line, whatever the width
    # each one's own die, asked of its owner in roster order (both may be typed at once,
    # Rosa's first); three values are refused
    assert out.index("? Rosa's initiative: d20") < out.index("? Grub the Brute's initiative")
    assert "then Grub the Brute's initiative: d20" in out
    assert "error (input 1): Rosa's initiative: d20: type 1 (Rosa's) or 2 (Rosa's, then " \
           "Grub the Brute's), not 3 (allowed: 1 or 2 values, each 1 to 20)" in out
    assert "Rosa rolls d20 for initiative: 17" in out
    assert "Grub the Brute rolls d20 for initiative: 2" in out


def test_the_gm_handed_a_combatants_policy_is_told_what_the_gm_may_be() -> None:
    done = _play(TRISTAT, 1, "q", args=("--control", "gm=cautious"))
    assert done.returncode == 2
    assert "no combatant" not in done.stderr
    assert ("controllers.gm: the GM's own choices cannot be made by 'cautious' (allowed: "
            "gm=person (by hand) or gm=policy (the system's policy))") in done.stderr


def test_the_rolls_fracas_makes_are_shown_to_the_table_in_every_system() -> None:
    """A roll made with ``r`` (or ``--roll-all``) is told as it is told in Tri-Stat and
    Genesys: the zamani d100, the contest's checks and damage, the c22 cards drawn."""
    shown = {
        ZAMANI: ("Kofi rolls d100 for short sword (swords): 82 > 65%: failure",),
        CONTEST: ("Roll 1 · Rosa, sword attack: d20 shows 20 + 4 (sword) + 1 (strength) "
                  "= 25 — critical threat",
                  "Rosa's sword damage: d8 shows 1 × 2 (critical multiplier) = 2"),
        C22: ("Mara draws 8C for initiative", "Mara draws 2S and 6D for the turn"),
    }
    for path, lines in shown.items():
        done = _play(path, 3, "", "", "", "1", "", "1", "q",
                     args=("--roll-all", "--control", "gm=person"))
        assert done.returncode == 0, done.stderr
        for line in lines:
            assert line in done.stdout, (path, line)


def test_a_name_of_several_words_is_taken_as_the_sheet_writes_it() -> None:
    done = _play(C22, 8, "8c", "8d", "gm hurt captain vos 3", "gm cond Captain Vos stunned 1",
                 "gm set Captain Vos Avoidance bonus 1", "q", args=("--control", "gm=person"))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "error" not in out
    assert "Captain Vos: health 14 → 11" in out
    assert "Captain Vos is stunned for 1 round" in out
    assert "Captain Vos: Avoidance bonus 0 → 1" in out


def test_ctrl_c_at_a_prompt_says_where_the_log_is_and_how_to_go_on(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    code, out = interrupt(["play", TRISTAT, "--seed", "1", "--log", str(log), "--gm-dice",
                           "typed"],
                          printed(b"allowed: 1 to 6"), cwd=ROOT)
    assert code == 130 and "Traceback" not in out
    assert f"log saved to {log}; go on with: " in out  # the command as it was called
    assert f"-m fracas play --resume {log}" in out
    done = subprocess.run([sys.executable, "-m", "fracas", "play", "--resume", str(log)],
                          input="3,4\nq\n", capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "? Gorr's initiative: 2d6" in done.stdout


def test_the_genesys_dice_prompt_names_each_symbol_and_what_this_pool_can_show() -> None:
    done = _play(GENESYS, 3, "s", "a", "1", "", "x", "q", args=("--control", "gm=person"))
    assert done.returncode == 0, done.stderr
    refused = next(line for line in done.stdout.splitlines() if line.startswith("error"))
    assert "'x': unknown symbol" in refused
    assert ("s success, a advantage, t triumph, f failure, h threat, d despair (counts like "
            "2s1a too): up to 4 s, 4 a, 4 f, 4 h; no t, d in this pool; Enter or '-' for all "
            "blanks") in refused
    assert "0-0" not in done.stdout


def test_redo_of_a_gm_edit_shows_the_edit_put_back() -> None:
    done = _play(TRISTAT, 1, "3,4", "5,2", "gm hurt Gorr 3", "u", "redo", "q")
    assert done.returncode == 0, done.stderr
    after = done.stdout.split("> redo", 1)[1].split("> q", 1)[0]
    assert "redid 1 step" in after and "Gorr: health 60 → 57" in after
