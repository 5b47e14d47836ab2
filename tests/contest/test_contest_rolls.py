"""Step 3: the attack contest's rolls (table defaults), threats and confirmations.

Att's sword check is d20 + 4, Def's every defense check d20 + 3 (see helpers)."""

from __future__ import annotations

from fracas.systems.contest.events import ContestCheck, ContestDecided
from tests.contest.helpers import DEFENDER, detail, run, scenario, sheet, texts


def _decided(result: object) -> ContestDecided:
    return next(e for e in result.events if isinstance(e, ContestDecided))  # type: ignore[attr-defined]


def test_a_tied_roll_goes_to_the_defender() -> None:
    result = run(scenario(defense="dodge"), [9, 10, 9, 10])  # 13 v 13, twice
    assert result.outcome == "dodged" and detail(result, "contest") == "defender"
    assert any("a tie goes to the defender" in t for t in texts(result))


def test_ties_to_the_attacker_when_the_table_says_so() -> None:
    s = scenario(defense="dodge", rules={"contest": {"ties_to": "attacker"}})
    result = run(s, [9, 10, 9, 10, 3])
    assert result.outcome == "hit" and result.damage == 3 + 1  # d6 + 1 melee bonus


def test_the_contest_stops_once_a_side_has_two_wins() -> None:
    result = run(scenario(defense="dodge"), [15, 5, 15, 5, 2])
    assert _decided(result).rolls == 2 and result.outcome == "hit" and result.damage == 3


def test_a_one_one_contest_goes_to_a_third_roll() -> None:
    result = run(scenario(defense="dodge"), [15, 5, 5, 15, 15, 5, 2])
    decided = _decided(result)
    assert (decided.rolls, decided.attacker_wins, decided.defender_wins) == (3, 2, 1)


def test_the_number_of_rolls_is_table_data() -> None:
    s = scenario(defense="dodge", rules={"contest": {"rolls": 1, "wins_needed": 1}})
    result = run(s, [5, 15])
    assert _decided(result).rolls == 1 and result.outcome == "dodged"


def test_a_defenders_threat_counts_as_two_successes() -> None:
    # Def's natural 20 (23 v 19), confirmation 3 (6, fails): two wins, the contest is over.
    result = run(scenario(defense="dodge"), [15, 20, 3])
    decided = _decided(result)
    assert (decided.rolls, decided.defender_wins) == (1, 2)
    assert result.outcome == "dodged" and detail(result, "defender_critical") == "threat"


def test_with_a_threat_counting_once_the_contest_goes_on() -> None:
    s = scenario(defense="dodge", rules={"contest": {"defender_threat_counts": 1}})
    result = run(s, [15, 20, 3, 15, 5, 15, 5, 2])
    assert _decided(result).rolls == 3 and result.outcome == "hit"


def test_a_confirmed_defender_critical_wins_outright() -> None:
    # threat counting once, so only "outright" can end it at 1-1 after roll 2
    s = scenario(defense="dodge", rules={"contest": {"defender_threat_counts": 1}})
    result = run(s, [15, 5, 15, 20, 16])  # confirmation 19 ties Att's 19: the defender's
    decided = _decided(result)
    assert (decided.rolls, decided.attacker_wins, decided.defender_wins) == (2, 1, 1)
    assert "outright" in decided.reason and result.outcome == "dodged"
    assert detail(result, "defender_critical") == "confirmed"


def test_an_attackers_threat_deals_damage_whatever_the_contest_result() -> None:
    strong = sheet(DEFENDER, skills={**DEFENDER["skills"], "dodge": 10})  # dodge check d20 + 11
    # roll 1: 24 v 26, Att's threat (confirmation 23 < 26); roll 2: 9 v 21; Def won 2-0
    result = run(scenario(defender=strong, defense="dodge"), [20, 15, 19, 5, 10, 4])
    assert detail(result, "contest") == "defender"
    # damage regardless, but no hit: the attacker did not win the contest (seed 001)
    assert result.outcome == "threat" and result.damage == 4 + 1 and not result.hit
    assert detail(result, "attacker_critical") == "threat"


def test_the_old_reading_an_attackers_threat_ends_the_contest_as_an_option() -> None:
    s = scenario(defense="dodge", rules={"contest": {"attacker_threat_ends_contest": True}})
    result = run(s, [2, 10, 20, 5, 3, 6])
    assert _decided(result).rolls == 2 and detail(result, "contest") == "deadlock"
    assert result.outcome == "threat" and result.damage == 6 + 1 and not result.hit


def test_by_default_an_attackers_threat_does_not_end_the_contest() -> None:
    result = run(scenario(defense="dodge"), [2, 10, 20, 5, 3, 15, 5, 6])
    assert _decided(result).rolls == 3 and detail(result, "contest") == "attacker"


def test_a_deadlock_without_a_threat_deals_no_damage() -> None:
    s = scenario(defense="dodge", rules={"contest": {"rolls": 2, "wins_needed": 2}})
    result = run(s, [15, 5, 5, 15])
    assert result.outcome == "deadlock" and result.damage == 0 and not result.hit


def test_a_confirmed_attacker_critical_is_a_critical_hit() -> None:
    # threat 24 v 8, confirmation 12 + 4 = 16 beats 8; d6 5 x 2, no melee bonus (table)
    # (played on: roll 2, 19 v 8, is Att's second win)
    result = run(scenario(defense="dodge"), [20, 5, 12, 15, 5, 5])
    assert result.outcome == "critical" and result.damage == 10


def test_the_melee_bonus_on_a_critical_is_table_data() -> None:
    s = scenario(defense="dodge", rules={"damage": {"melee_bonus_on_critical": True}})
    assert run(s, [20, 5, 12, 15, 5, 5]).damage == 11


def test_trait_bonus_damage_is_added_to_a_critical() -> None:
    from tests.contest.helpers import ATTACKER

    brute = sheet(ATTACKER, traits=[{"name": "brutal", "damage": 2}])
    assert run(scenario(attacker=brute, defense="dodge"), [20, 5, 12, 15, 5, 5]).damage == 12


def test_a_confirmation_must_beat_the_opponents_total() -> None:
    # Def 5 + 3 = 8; confirmation 4 + 4 = 8 ties: ties go to the defender, not confirmed
    result = run(scenario(defense="dodge"), [20, 5, 4, 15, 5, 5])
    assert result.outcome == "hit" and detail(result, "attacker_critical") == "threat"


def test_pinned_dice_follow_the_documented_order_within_a_roll() -> None:
    # counter: both threaten in roll 1 (24 v 23): Att's confirmation, then Def's
    result = run(scenario(defense="counter"),
                 [20, 20, 10, 11, 15, 5, 15, 5, 3, 4])
    checks = [(e.who, e.check, e.natural) for e in result.events
              if isinstance(e, ContestCheck)][:4]
    assert checks == [("Att", "sword attack", 20), ("Def", "spear counter attack", 20),
                      ("Att", "confirming the sword attack threat", 10),
                      ("Def", "confirming the spear counter attack threat", 11)]
