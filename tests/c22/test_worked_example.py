"""Seed 000, "Example: One Tough Lizard", step for step; and the other examples' numbers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.core.events import Changed, Compared, Outcome, Total
from fracas.encounter.narration import Names, say
from fracas.systems.c22 import SYSTEM
from fracas.systems.c22.events import C22Drew, C22Maneuver, C22Reduced, C22Split
from fracas.testing import check_system
from tests.c22.util import EXAMPLES, after, example, of_type, pinned


def test_one_tough_lizard_follows_the_seed_step_for_step() -> None:
    s = example("one-tough-lizard.yaml")
    r = pinned(s)
    steps = [e for e in r.events if not (isinstance(e, Changed) and e.field in (
        "draw_pile", "discard"))]
    want = [
        (C22Drew, {"who": "Jace", "cards": ("4S", "4H")}),
        (C22Split, {"weapon_card": "4S", "maneuver_card": "4H"}),
        (C22Maneuver, {"maneuver": "Fish in a Barrel", "option": "base",
                       "effects": "Pierce 3"}),
        (Total, {"name": "Damage", "value": 14,
                 "parts": (("ballistic pistol", 12), ("trained", 2), ("Fish in a Barrel", 0))}),
        (Total, {"name": "Accuracy", "value": 5,
                 "parts": (("weapon card 4S", 4), ("General rank 1", 1))}),
        (Compared, {"left_value": 5, "relation": "≤", "right": "Avoidance", "right_value": 5}),
        (C22Reduced, {"step": "Graze", "before": 14, "after": 7}),
        (C22Drew, {"who": "Lizard", "cards": ("6C",)}),
        (Total, {"name": "Block check", "value": 7}),
        (Compared, {"left_value": 7, "relation": "≥", "right_value": 5}),
    ]
    for (cls, fields), event in zip(want, steps, strict=False):
        assert isinstance(event, cls), (event, cls)
        for k, v in fields.items():
            assert getattr(event, k) == v, (event, k)
    rest = steps[len(want):]
    assert "+2 Armor" in rest[0].text()
    armor, pierced, reduced, health, outcome = rest[1:]
    assert isinstance(armor, Total) and armor.value == 6  # block: Armor 6
    assert isinstance(pierced, Total) and pierced.value == 3  # Pierce 3 ignores 3 of 6
    assert "Pierce 3 ignores 3 of the 6 Armor" in pierced.text()
    assert isinstance(reduced, C22Reduced) and (reduced.before, reduced.after) == (7, 4)
    assert isinstance(health, Changed) and (health.before, health.after) == (30, 26)
    assert isinstance(outcome, Outcome) and outcome.damage == 4
    assert (r.outcome, r.hit, r.damage, r.taken_out) == ("graze", False, 4, False)


def test_one_tough_lizard_cli_json_gives_4_damage() -> None:
    out = CliRunner().invoke(app, ["attack", str(EXAMPLES / "one-tough-lizard.yaml"),
                                   "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["damage"] == 4 and data["outcome"] == "graze"
    assert data["defender"]["health"] == 26
    assert data["defender"]["discard"] == ["6C"]
    texts = [e["text"] for e in data["events"]]
    assert "Graze: damage 14 → 7 (half, rounded up)" in texts
    assert "Armor: 4 (Armor) + 2 (Block) = 6" in texts


def test_the_lizard_example_moves_both_decks() -> None:
    s = example("one-tough-lizard.yaml")
    roster = after(s, pinned(s))
    assert roster["jace"].state.discard == ("4S", "4H")
    assert len(roster["jace"].state.draw_pile) == 20
    assert "4S" not in roster["jace"].state.draw_pile
    assert roster["lizard"].state.discard == ("6C",)


def test_full_hit_parried() -> None:
    s = example("full-hit-parry.yaml")
    r = pinned(s)
    assert (r.outcome, r.hit, r.damage) == ("hit", True, 7)
    reduced = of_type(r.events, "C22Reduced")
    assert [(e.step, e.before, e.after) for e in reduced] == [("Parry", 12, 9),
                                                             ("Armor", 9, 7)]


def test_raised_heavy_swing_dodged() -> None:
    s = example("raised-heavy-swing.yaml")
    r = pinned(s)
    (split,) = of_type(r.events, "C22Split")
    assert (split.weapon_card, split.maneuver_card) == ("8C", "6H")
    (man,) = of_type(r.events, "C22Maneuver")
    assert man.option == "raised" and man.effects == "+4 damage, -3 Accuracy"
    assert [(e.step, e.before, e.after) for e in of_type(r.events, "C22Reduced")] == [
        ("Dodge", 16, 8), ("Armor", 8, 5)]
    assert r.damage == 5 and dict(r.details) == {"maneuver": "raised",
                                                 "reaction": "succeeded",
                                                 "damage_dealt": 5, "health_lost": 5}


def test_red_joker_weapon_card_and_black_joker_passed_over() -> None:
    s = example("red-joker-dodge.yaml")
    r = pinned(s)
    accuracy = next(e for e in of_type(r.events, "Total") if e.name == "Accuracy")
    assert accuracy.value == 15  # red joker 14 + General 1
    drone_draw = of_type(r.events, "C22Drew")[1]
    assert drone_draw.cards == ("BJ", "8S")
    assert (r.damage, r.taken_out) == (10, True)
    roster = after(s, r)
    assert roster["drone"].state.conditions == ("unconscious",)
    for cid in ("sable", "drone"):  # the joker reshuffle, once the attack is over
        assert roster[cid].state.discard == ()
        assert len(roster[cid].state.draw_pile) == 22


def test_advance_moves_the_defender_toward_the_attacker() -> None:
    s = example("advance-on-hex.yaml")
    r = pinned(s)
    roster = after(s, r)
    assert roster["kade"].state.position == (0, 0)
    assert roster["warden"].state.position == (1, 0)
    assert r.damage == 7


def test_raised_dash_covers_the_whole_path() -> None:
    s = example("dash-square-grid.yaml")
    r = pinned(s)
    assert r.outcome == "moved"
    (moved,) = of_type(r.events, "C22Moved")
    assert moved.metres == 16 and moved.spaces == 8  # 2 + 2 + 2 + 2, twice
    assert after(s, r)["nix"].state.position == (8, 2)


def test_conforms() -> None:
    check_system(SYSTEM, sorted(Path(EXAMPLES).glob("*.yaml")))


def test_a_deck_change_is_told_by_its_size_and_the_cards_that_moved() -> None:
    """The Lizard's attack in a fresh ``fracas attack``: Jace's draw pile of 22 cards is
    told as '22 → 20 (less 4H, 4S)', not as both piles card by card."""
    done = subprocess.run([sys.executable, "-m", "fracas", "attack",
                           str(EXAMPLES / "one-tough-lizard.yaml")], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert "Jace: draw pile 22 → 20 (less 4H, 4S)" in done.stdout, done.stdout
    assert "Jace: discard pile none → 4S, 4H" in done.stdout  # a short list: whole
    assert "2C, 2D" not in done.stdout


def test_a_reshuffled_pile_is_told_by_its_size() -> None:
    pile = tuple(f"{n}{s}" for n in (2, 4, 5, 6, 8) for s in "CDHS")
    words = example("one-tough-lizard.yaml").system.words
    names = Names({"jace": "Jace"})
    back = say(Changed("Decks", "jace", "draw_pile", (), pile), names, words)
    assert back == "Jace: draw pile 0 → 20", back  # 20 cards came: counted, not listed
    joker = say(Changed("Decks", "jace", "draw_pile", pile[:18], (*pile[:18], "RJ")),
                names, words)
    assert joker == "Jace: draw pile 18 → 19 (plus RJ)", joker
    short = say(Changed("Decks", "jace", "discard", ("4S",), ("4S", "4H")), names, words)
    assert short == "Jace: discard pile 4S → 4S, 4H", short
