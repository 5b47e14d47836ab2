"""``w`` in ``fracas play`` (a fresh process, scripted): who's winning from the fight as it
stands, moving as the fight moves, and ``w if ...``, which changes nothing in the log."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from fracas.analysis.winning import of_session, win_chance
from fracas.encounter.session_log import load_session
from fracas.registry.scenarios import load_scenario
from tests.live.test_play_cli import DUEL, _by_hand, _play

FIGURE = re.compile(r"^\s*(blades|fists)\s+│\s+([\d.]+)%\s+│\s+(exact|([\d.]+)% – ([\d.]+)%)",
                    re.M)


def _figures(block: str) -> dict[str, tuple[float, float, float]]:
    """Each side's figure and interval in the last table of ``block`` (a point if exact)."""
    out: dict[str, tuple[float, float, float]] = {}
    for side, p, how, lo, hi in FIGURE.findall(block):
        value = float(p) / 100
        out[side] = (value, value, value) if how == "exact" else (
            value, float(lo) / 100, float(hi) / 100)
    return out


def _holds(shown: tuple[float, float, float], exact: Fraction) -> bool:
    """The figure shown is the exact one (to its one decimal), or its 95 % interval holds
    it (the printed ends, rounded to 0.1 point)."""
    p, lo, hi = shown
    if lo == hi:
        return abs(p - float(exact)) <= 0.0005
    return lo - 0.001 <= float(exact) <= hi + 0.001


def test_w_shows_the_chance_as_the_fight_moves_and_what_if_changes_nothing(
        tmp_path: Path) -> None:
    _, lines = _by_hand(DUEL, 4)
    played = lines[:14]
    plain, asked = tmp_path / "plain.jsonl", tmp_path / "asked.jsonl"
    done = _play(DUEL, "--seed", "4", "--log", str(plain),
                 stdin="\n".join([*played, "q"]) + "\n")
    assert done.returncode == 0, done.stderr
    script = ["?", "w", *played, "w", "w if gorr health 3", "w if Rin leaves",
              'w if join {"id": "kat"}', "w if nobody leaves", "q"]
    done = _play(DUEL, "--seed", "4", "--log", str(asked), stdin="\n".join(script) + "\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in out + done.stderr
    assert "w if ID FIELD VALUE" in out  # the help names the key
    blocks = out.split("> w")
    start, later = blocks[1], blocks[2]
    # at the start: each side's chance, the exact one or an interval that holds it
    assert "Who's winning" in start and "before the first round" in start
    assert "played by: Rin: aggressive (the default); Gorr: aggressive (the default)" in \
        " ".join(start.split())
    exact = win_chance(load_scenario(DUEL), method="exact")
    shown = _figures(start.split("Who's winning")[-1])
    assert set(shown) == {"blades", "fists"}
    assert all(_holds(shown[s], exact.sides[s].exact or Fraction(0)) for s in shown)
    # later: from the fight as it stands, whose exact chance differs
    now = win_chance(of_session(load_session(plain)), method="exact")
    assert now.position.where in " ".join(later.split())
    shown = _figures(later.split("Who's winning")[-1])
    assert all(_holds(shown[s], now.sides[s].exact or Fraction(0)) for s in shown)
    assert now.sides["blades"].exact != exact.sides["blades"].exact
    # what if: the changed chance, named; a bad what-if is refused in words
    hurt = blocks[3]
    assert "what if: Gorr at health 3" in " ".join(hurt.split())
    assert _figures(hurt.split("Who's winning")[-1])["blades"][0] > 0.8
    assert "what if: Rin leaves" in " ".join(blocks[4].split())
    assert "entry.side" in blocks[5] and "no combatant 'nobody'" in blocks[6]
    # nothing the w key did is in the log: the same inputs as the fight without it
    assert load_session(asked).entries == load_session(plain).entries
    assert load_session(asked).state == load_session(plain).state
