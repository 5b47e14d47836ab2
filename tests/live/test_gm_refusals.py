"""A GM command refused says why once and what is allowed once (issue 34): in ``fracas
play`` (a fresh process), while the round's order is still being rolled, every GM tool
that needs it set (a move, an initiative set by hand, a hold, a free-form action, a
combatant joining at a place) and ``gm init`` at a player's roll are refused, each in one
plain sentence, its ``allowed`` never repeating the reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.live.test_gm_play import play

ROOT = Path(__file__).resolve().parents[2]
CONTEST = str(ROOT / "examples" / "contest" / "duel-fight.yaml")  # Rosa against Grub
TRISTAT = str(ROOT / "examples" / "tristat" / "duel-fight.yaml")  # Rin against Gorr
IMP = json.dumps({"id": "imp", "name": "the imp", "side": "raiders", "hp": 3,
                  "skills": {"club": 1}, "weapons": [{"name": "claws", "skill": "club",
                                                      "damage": "d4", "kind": "melee"}]})


def _errors(path: str, player: str, lines: list[str], tmp: Path) -> list[str]:
    out = play(path, "--seed", "1", "--player", player, tmp=tmp,
               script="\n".join([*lines, "q"]) + "\n")
    return [" ".join(e.split()) for e in re.findall(r"^error \(input \d+\): (.*(?:\n(?![?>]).*)*)",
                                                      out, re.M)]


def _read_once(error: str) -> None:
    said, _, allowed = error.partition(" (allowed: ")
    allowed = allowed.removesuffix(")")
    assert allowed and allowed not in said, error
    words = said.split(": ", 1)[-1].split()
    trigrams = [" ".join(words[i:i + 3]) for i in range(len(words) - 2)]
    assert not [t for t in trigrams if t in allowed], error
    assert len(set(trigrams)) == len(trigrams), error


def test_the_gm_tools_refused_while_the_order_is_rolled_say_so_once(tmp_path: Path) -> None:
    errors = _errors(CONTEST, "rosa", [
        "gm move rosa before grub", "gm set rosa initiative 3", "gm hold",
        "gm do throws sand | roll 2d6 vs 8 | on success damage grub 2",
        f"gm join now {IMP}"], tmp_path)
    assert errors == [
        "order: this round's order is still being rolled (allowed: once the order is set, "
        "from the round's first turn on)",
        "order: this round's order is still being rolled (allowed: once the order is set, "
        "from the round's first turn on)",
        "hold: a turn is held when it comes (allowed: at its action decision, or at the "
        "choice of who takes a slot)",
        "free action: a free-form action takes the acting combatant's turn (allowed: at an "
        "action decision)",
        "place: this round's order is still being rolled (allowed: next round, or a place "
        "once the order is set, from the round's first turn on)"], errors
    for error in errors:
        _read_once(error)


def test_gm_init_at_a_players_roll_says_so_once(tmp_path: Path) -> None:
    """Rin is the player's (``--player``): her initiative is hers to roll."""
    errors = _errors(TRISTAT, "rin", ["gm init"], tmp_path)
    assert errors == ["initiative: Rin's roll is asked now, and it is the player's to make "
                      "(allowed: Rin's player rolls first; gm init then rolls the GM side)"]
    _read_once(errors[0])


def test_a_gm_command_typed_wrong_says_how_it_is_typed(tmp_path: Path) -> None:
    """A known command without what it needs gets its own form from the help; an unknown
    one the list of every command; an effect of ``gm do`` refused is named as typed, not
    by its place in a request (``effects[0].when``)."""
    errors = _errors(CONTEST, "rosa", [
        "12", "gm do", "gm move rosa", "gm delay after", "gm frob",
        "gm do throws sand | roll 1d6 | on success damage grub 2"], tmp_path)
    assert errors == [
        "gm: 'gm do' is not how gm do is typed (allowed: gm do TEXT [| roll 2d6 [vs|under N] "
        "[= VALUE]] [| [on success|on failure|always] damage ID N | heal ID N | cond ID NAME "
        "[ROUNDS]] ... (? for help))",
        "gm: 'gm move rosa' is not how gm move is typed (allowed: gm move ID before|after ID2 "
        "(? for help))",
        "gm: 'gm delay after' is not how gm delay is typed (allowed: gm hold [after ID2] "
        "(? for help))",
        "gm: unknown GM command 'gm frob' (allowed: gm auto, gm hand, gm skip, gm do, gm init, "
        "gm dice, gm hurt, gm heal, gm cond, gm uncond, gm move, gm hold, gm join, gm set, "
        "gm add, gm remove, gm end (? for help))",
        "gm do: 'on success damage grub 2': an effect on success needs a roll against a "
        "target number (allowed: always, or give the roll a target)"], errors
    for error in errors:
        _read_once(error)
