"""What a game master new to fracas meets at the terminal with ``fracas play``: every fact
the table needs told once, in the table's words, each through the real command in a
fresh process fed what a GM typed."""

from __future__ import annotations

import os
import subprocess
import sys

GATE = "examples/contest/gate-fight.yaml"
FORD = "examples/zamani/river-crossing-fight.yaml"
WAREHOUSE = "examples/tristat/warehouse-fight.yaml"


def _play(path: str, *lines: str) -> str:
    """``fracas play PATH`` fed ``lines`` on stdin, then ``q``: what it printed."""
    done = subprocess.run([sys.executable, "-m", "fracas", "play", path, "--seed", "1",
                           "--gm-dice", "typed"],  # the GM types the GM side's dice too
                          input="\n".join((*lines, "q")) + "\n", capture_output=True,
                          text=True, timeout=600, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


#: the gate fight's initiatives: Rosa 15 acts first, then Bigger Angrier Amanda 12
GATE_START = ("10", "15", "5", "12", "8")


def test_a_counter_attacks_damage_to_the_attacker_is_told_with_the_outcome() -> None:
    """Rosa attacks Amanda, who counters and wins the contest 2-1: Rosa's critical hit
    takes 10 from Amanda, and Amanda's hand axe takes Rosa's 10 health; the brief lines
    say both, not only the damage to the attack's target."""
    out = _play(GATE, *GATE_START, "1", "2", "", "2",  # sword, at Amanda, go; she counters
                "20", "5", "15",  # roll 1: Rosa's 20 (a threat) against 5, confirmed
                "10", "10", "3", "4",  # rolls 2 and 3 to Amanda
                "5", "3 4")  # Rosa's d8, Amanda's 2d6
    lines = out.splitlines()
    hit = lines.index("  Rosa → Bigger Angrier Amanda: critical hit; Bigger Angrier Amanda "
                      "loses 10")
    assert lines[hit + 1] == "  Rosa: health 10 → 0", lines[hit - 3:hit + 3]


#: the ford: nobody sacrifices, Kofi attacks Obi (who has only his Dexterity to defend
#: with: no choice asked) and misses (00 is 100); Sefa acts next
FORD_START = ("", "", "", "", "", "", "1", "2", "", "00")


def test_a_condition_the_rules_know_put_on_by_the_gm_is_one_the_rules_apply() -> None:
    """Seed 002 · Defense: a stunned character does not get even its Dexterity ranks as a
    defense. ``gm cond Jabari stunned 1`` puts it on in the rules, not only beside his
    name: Sefa's club then meets the first column; ``u`` takes the whole edit back."""
    out = _play(FORD, *FORD_START, "gm cond Jabari stunned 1", "1", "3", "", "30", "e",
                "s")
    assert "Jabari has no defense (stunned: not even Dexterity)" in out, out[-3000:]
    assert "Sefa → Jabari: medium hit; Jabari loses 6" in out
    undone = _play(FORD, *FORD_START, "gm cond Jabari stunned 1", "u", "1", "3", "",
                   "30", "e")
    assert "undid 1 step" in undone
    assert "Jabari defends with Dexterity" in undone, undone[-3000:]


def test_the_status_shows_the_conditions_the_rules_put_on() -> None:
    """Rosa is brought to 0 by a counter attack: the rules make her dying, and ``s``
    shows it beside her name, not only 'out'."""
    out = _play(GATE, *GATE_START, "1", "2", "", "2", "20", "5", "15", "10", "10", "3",
                "4", "5", "3 4", "s")
    status = out.split("> s", 1)[1]
    rosa = next(line for line in status.splitlines() if " Rosa " in line)
    assert "dying" in rosa, status


def test_a_confirmation_and_a_weapon_roll_say_what_they_need() -> None:
    """Seed 001 · Step 3: a threat is confirmed by a check that beats the opponent's total,
    which the table has not heard yet (a roll is told once its dice are all in), and a
    fumbled attack needs a weapon roll: each prompt says what the die must show."""
    confirm = _play(GATE, *GATE_START, "1", "2", "", "2", "20", "5")
    # Rosa: d20 + 4 (sword) + 1 (strength) against Amanda's 5 + 4 (axe) + 3 (strength)
    assert ("? Rosa's roll to confirm the critical hit: d20 + 5 (sword 4, strength 1), needs "
            "8 or more (a total over Bigger Angrier Amanda's 12)") in confirm, confirm[-1500:]
    fumble = _play(GATE, *GATE_START, "1", "2", "", "2", "1", "5")
    # the table default: d20 + 4 (sword) + 1 (strength) against 10
    assert ("? Rosa's weapon roll after the fumble: d20 + 5 (sword 4, strength 1), needs 5 or "
            "more (a total of 10)") in fumble, fumble[-1500:]


def test_a_roll_of_two_dice_typed_wrong_is_told_once_in_the_tables_words() -> None:
    """2d6 typed as one value, three values, or a 7: the error says how many values the
    roll needs (not 'value 2 for d6: needs more than the 1 value given (allowed: at
    least 2 values)') and names the die once, without the answer's field name."""
    out = _play(WAREHOUSE, "4", "4 4 4", "3 7", "3 4")
    errors = [line for line in out.splitlines() if line.startswith("error")]
    assert errors == [
        "error (input 1): Joe's initiative: 2d6: type 2 values, not 1 (allowed: 2 values, "
        "each 1 to 6)",
        "error (input 2): Joe's initiative: 2d6: type 2 values, not 3 (allowed: 2 values, "
        "each 1 to 6)",
        "error (input 3): Joe's initiative: 2d6: 7 is not a value d6 can show (allowed: 1 "
        "to 6)"], errors
    assert "? Ada's initiative: 2d6" in out  # 3 4 then taken


def test_a_defender_is_asked_only_to_choose_between_defenses_that_differ() -> None:
    """Seed 002 · Defense: at minimum Dexterity. Kofi (Dexterity 12, less 1 for his armour)
    would defend with it whether he chose a block (Swords 6) or Acrobatics (3): he is not
    asked, nor is Obi, who has only his Dexterity; Dura chooses between her shield and
    her Dexterity."""
    out = _play(FORD, *FORD_START, "1", "1", "", "1", "40", "gm auto", "e")
    assert "Obi's reaction" not in out and "Kofi's reaction" not in out, out[-3000:]
    assert ("? Dura's reaction to Sefa's attack Dura with club\n   1. Best defence  hit 40%, "
            "dmg 0.40, out 0%\n   2. Defend with Dexterity  hit 50%, dmg 0.90, out 0%") in out


def test_a_sacrifice_says_what_it_costs_and_for_how_long() -> None:
    """Seed 002 · Sacrifice: "at the start of a Turn (not a round!)", 5 % per rank for all
    the rounds of the Turn. The menu says '−10 %', not '−2 × 5 %', and that it holds this
    Turn; sacrificing nothing is not told as 'Kofi: sacrificed'."""
    out = _play(FORD, "", "2", "")
    assert "   2. [ ] 2 ranks — −10 % on rolled skills this Turn, +2 initiative" in out, out
    assert "× 5 %" not in out
    assert "  Kofi: Sacrifice nothing\n  Kofi: chosen for this Turn\n" in out
    assert "  Ama: Sacrifice · 2 ranks\n  Ama: chosen for this Turn\n" in out
    assert "sacrificed" not in out


def test_the_help_names_the_fields_of_this_fight() -> None:
    """``?`` in a Zamani fight gave Tri-Stat's and Genesys's fields as the examples of
    ``gm set`` (health, Energy, strain), which a Zamani combatant does not have: it names
    this fight's own."""
    out = " ".join(_play(FORD, "?").split())
    assert "as the narration shows it: wounds, most wounds, conditions...)" in out, out
    assert "Energy" not in out and "strain" not in out


def test_a_hit_the_armour_stops_says_the_target_loses_nothing() -> None:
    """Sefa's club (rating 3) lands a light hit on Dura, whose armour absorbs 4: the line
    said 'light hit' and nothing more, leaving the table to ask how much she lost."""
    out = _play(FORD, *FORD_START, "1", "1", "", "1", "37")  # Dura takes her shield
    assert "  Sefa → Dura: light hit; Dura loses nothing\n" in out, out[-2000:]


def test_a_condition_an_attack_puts_on_is_told_with_its_outcome() -> None:
    """Kofi's controlled attack to knock Obi prone lands (seed 002 · Controlled Attack:
    the declared effect instead of the table's): the outcome names the effect (it said
    'the declared effect applies'), and the next line that Obi is prone."""
    out = _play(FORD, "", "", "", "", "", "", "1", "2", "5", "", "5")
    full = _play(FORD, "", "", "", "", "", "", "1", "2", "5", "", "5", "e")
    assert " 15. Kofi → Obi: controlled hit: Obi is knocked prone; Obi loses 4" in full
    assert ("  Kofi → Obi: controlled hit: Obi is knocked prone; Obi loses 4\n"
            "  Obi: conditions none → prone\n") in out, out[-2000:]
    # the gate fight: Rosa's counter-attacked attack leaves her dying, told as it happens
    gate = _play(GATE, *GATE_START, "1", "2", "", "2", "20", "5", "15", "10", "10", "3",
                 "4", "5", "3 4")
    assert "  Rosa: health 10 → 0\n  Rosa: conditions none → dying\n" in gate


def test_a_tri_stat_defender_s_plain_reaction_says_it_still_defends() -> None:
    """Seed 003 · How to Defend against an Attack: a hit target rolls its defence; the
    reaction is only whether it spends willpower. 'No reaction' read as no defence."""
    out = _play(WAREHOUSE, "3 4", "6 6", "2 5", "4 4", "1 1", "3 3", "a")
    assert ("? the vampire's reaction to Ada's attack the vampire with pistol\n"
            "   1. Defend without willpower  hit 60%") in out, out[-1500:]
    assert "No reaction" not in out
