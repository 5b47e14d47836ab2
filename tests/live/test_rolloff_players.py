"""A tied initiative roll-off at the table (issue 34: players type their own combatants'
dice, fracas rolls the GM side's), in ``fracas play`` in a fresh process: with a player in
the tie, fracas rolls the GM side's die first and says what it rolled, then asks the
player for that player's own die, again while tied; a roll-off of the GM side alone is
one roll, asked as a table says it (``Initiative roll-off between Rosa and Grub the Brute:
d20 each``, the name from the pack's initiative defaults). Contest and Tri-Stat roll off
(RULES.md, each system's initiative: ties by rank or Combat Value, then a roll-off); the
log plays back to the same order."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml

from fracas.encounter.session_log import load_session
from tests.live.test_gm_play import play

ROOT = Path(__file__).resolve().parents[2]
CONTEST = str(ROOT / "examples" / "contest" / "duel-fight.yaml")  # Rosa against Grub


def _run(path: str, *args: str, lines: list[str], tmp: Path) -> str:
    return play(path, *args, script="\n".join([*lines, "q"]) + "\n", tmp=tmp)


def _asked(out: str) -> list[str]:
    return re.findall(r"^\? (.*)$", out, re.M)


def _tied(system: str, tmp: Path) -> str:
    """``system``'s example duel with its second combatant's sheet made the first's (a tie
    on every initiative value), written to a file: its path."""
    with open(ROOT / "examples" / system / "duel-fight.yaml", encoding="utf-8") as f:
        data = yaml.safe_load(f)
    first, second = data["combatants"][:2]
    second.update({k: v for k, v in first.items() if k not in ("id", "name", "side")})
    path = tmp / "tied.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


def _first_round(log: Path) -> list[str]:
    """Round 1's order of turns, as ``--resume`` plays the log back."""
    return [slot.candidates[0] for slot in load_session(log).state.slots]


def test_a_contest_roll_off_asks_the_player_for_her_own_die(tmp_path: Path) -> None:
    """Seed 1: fracas rolls Grub's initiative, 11; Rosa's player types 11: a tie. Fracas
    rolls Grub's roll-off die (11) and says so, then asks Rosa's; 11 again is a tie, both
    roll again: Grub's 13 is told, Rosa's 4 is lower, so Grub acts first."""
    log = tmp_path / "fight.jsonl"
    out = _run(CONTEST, "--seed", "1", "--player", "rosa", "--log", str(log),
               lines=["11", "11", "4"], tmp=tmp_path)
    asked = _asked(out)
    assert "Rosa rolls d20 for the initiative roll-off: 11" in out  # hers, as typed
    assert asked[:3] == ["Rosa's initiative: d20",
                         "Rosa's initiative roll-off against Grub the Brute: d20",
                         "Rosa's initiative roll-off against Grub the Brute, tied again: d20"]
    assert not any(a.startswith("Grub") for a in asked[:3]), asked
    told = "Grub the Brute rolls d20 for the initiative roll-off: 11"
    again = "Grub the Brute rolls d20 for the initiative roll-off, tied again: 13"
    flat = " ".join(out.split())
    assert told in flat and again in flat
    # each GM-side die told before the player is asked for hers
    assert flat.index(told) < flat.index("? Rosa's initiative roll-off")
    assert flat.index(again) < flat.index("? Rosa's initiative roll-off against Grub the "
                                          "Brute, tied again")
    assert "Round 1: Grub the Brute, Rosa" in flat
    assert _first_round(log)[:2] == ["grub", "rosa"]
    records = load_session(log).to_records()
    off = [(r.get("owner"), r.get("by")) for r in records[1:] if r.get("kind") == "dice"]
    assert off[2:] == [("grub", "fracas"), ("rosa", "gm"), ("grub", "fracas"),
                       ("rosa", "gm")], off


def test_a_tristat_roll_off_asks_the_player_for_her_own_dice(tmp_path: Path) -> None:
    """Gorr made Rin's equal (the same Combat Value): both 7 on 2d6, a tie on initiative
    and Combat Value; fracas rolls Gorr's roll-off 2d6 (7) and says so, Rin's player types
    5 5 and Rin acts first."""
    path = _tied("tristat", tmp_path)
    log = tmp_path / "fight.jsonl"
    out = _run(path, "--seed", "1", "--player", "rin", "--log", str(log),
               lines=["3,4", "5 5"], tmp=tmp_path)
    assert _asked(out)[:2] == ["Rin's initiative: 2d6", "Rin's initiative roll-off against "
                                                        "Gorr: 2d6"]
    flat = " ".join(out.split())
    assert "Gorr rolls 2d6 for initiative: 7 (+ Combat Value 4 = 11)" in flat
    told = "Gorr rolls 2d6 for the initiative roll-off: 7"
    assert told in flat and flat.index(told) < flat.index("? Rin's initiative roll-off")
    assert "Round 1: Rin, Gorr" in flat
    assert _first_round(log)[:2] == ["rin", "gorr"]


def test_a_gm_side_roll_off_is_one_roll_said_as_a_table_says_it(tmp_path: Path) -> None:
    """Nobody's a player and the GM types the GM side's dice: the roll-off is one roll,
    ``d20 each`` between the tied, never "initiative roll-off: initiative roll-off"; values
    that tie again are told as a tie."""
    out = _run(CONTEST, "--seed", "1", "--gm-dice", "typed",
               lines=["1", "1", "5 5", "20 3"], tmp=tmp_path)
    flat = " ".join(out.split())
    assert "? Initiative roll-off between Rosa and Grub the Brute: d20 each" in flat
    assert "roll-off: initiative roll-off" not in flat.lower()
    assert ("the values typed leave a tie, and a roll-off goes on while tied: type 2 values "
            "that break it") in flat
    assert "Round 1: Rosa, Grub the Brute" in flat


def test_a_zamani_tie_break_is_the_gms_die_even_with_a_player_in_the_tie(
        tmp_path: Path) -> None:
    """Seed 002 · Segment & Initiatives: same initiative, Fitness and Spirit, "the GM
    rolls a die": Dura made Kofi's equal, Kofi the player's; fracas rolls the tie-break
    die for each and says so, and Kofi's player is never asked for it."""
    path = _tied("zamani", tmp_path)
    out = _run(path, "--seed", "1", "--player", "kofi", "--verbose",
               lines=["", ""], tmp=tmp_path)
    assert not any("tie-break" in a for a in _asked(out)), _asked(out)
    flat = " ".join(out.split())
    for name in ("Kofi", "Dura"):
        assert (f"fracas rolls tie-break die for {name} (initiative 7; the higher goes "
                "first): d10 →") in flat
    assert "Tie at initiative 7, compared by d10: Dura 6, Kofi 5 (higher goes first)" in flat


def test_an_older_zamani_log_with_a_tie_break_die_typed_by_the_player_still_reads_back(
        ) -> None:
    """Before the tie-break die was the GM's, fracas asked it of each tied combatant: a log
    written then (Kofi's player typed 5, fracas rolled Dura's 5: tied again) reads back in
    a fresh process, the typed die read as the GM's, and waits for the next tie-break die."""
    log = ROOT / "tests" / "live" / "data" / "zamani-tie-typed-by-player.jsonl"
    done = subprocess.run([sys.executable, "-m", "fracas", "replay", str(log)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "waiting for: Tie-break die for Kofi (initiative 7; the higher goes first)" in (
        " ".join(done.stdout.split()))
