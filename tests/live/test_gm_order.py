"""The GM's hand on the turn order (issue 34, item 6), in ``fracas play`` (the real command,
a fresh process, a scripted table): ``gm move X before|after Y`` reorders this round (and,
where the rules keep places, the rounds after), ``gm set X initiative N`` re-sorts the
round or is refused with the reason (never accepted and ignored), ``gm hold`` holds the
turn in every system, ``gm init`` rolls only the GM side; every change is in the log,
undone by ``u`` and played again on resume. Zamani's own delay passes to the next
combatant still standing."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.events import RoundStarted, SlotAdded, SlotPassed, TurnStarted
from fracas.encounter import order
from fracas.encounter.gm_events import Reordered
from fracas.encounter.session import Session
from fracas.encounter.session_log import load_session
from fracas.errors import InputError
from fracas.registry.examples import load_example
from fracas.registry.scenarios import scenario_from_mapping
from tests.live.test_gm_play import play as play_script

WAREHOUSE = "examples/tristat/warehouse-fight.yaml"
GATE = "examples/contest/gate-fight.yaml"
BRAWL = "examples/c22/deck-brawl-fight.yaml"
DOCKS = "examples/genesys/three-vs-three-fight.yaml"
FORD = "examples/zamani/river-crossing-fight.yaml"


def play(*args: str, script: list[str], tmp: Path) -> str:
    """``fracas play`` in a fresh process with ``script`` typed, then ``q``."""
    return play_script(*args, script="\n".join([*script, "q"]) + "\n", tmp=tmp)


def resumed(log: Path) -> Session:
    """The session as ``--resume`` reads it back (its log checked, played again)."""
    return load_session(log)


def next_prompt(out: str, after: str) -> str:
    """The first question asked after ``after`` in the transcript."""
    return next(line for line in out.split(after, 1)[1].splitlines() if line.startswith("? "))


def turns(session: Session, number: int) -> list[str]:
    """Who took the turns of round ``number``, in order."""
    out, now = [], 0
    for e in session.events:
        if isinstance(e, RoundStarted):
            now = e.round
        elif isinstance(e, TurnStarted) and now == number:
            out.append(e.actor)
    return out


def test_a_move_and_a_set_initiative_take_effect_from_now_on(tmp_path: Path) -> None:
    """Tri-Stat keeps each combatant's place (initiative rolled once a fight): a move
    renumbers the places and holds in round 2; a place set by hand re-sorts the round."""
    log = tmp_path / "fight.jsonl"
    out = play(WAREHOUSE, "--seed", "2", "--roll-all", "--log", str(log), tmp=tmp_path,
               script=["gm auto",  # the vampire attacks Ada
                       "1",  # Ada defends; Joe's action is asked
                       "gm move ben before joe",
                       "gm move joe before joe",
                       "gm move vampire after ada",
                       "gm set thrall initiative 9",
                       *(f"gm auto {c} aggressive" for c in
                         ("joe", "ada", "ben", "vampire", "thrall", "thrall2"))])
    assert "Ben now acts before Joe (from now on)" in out
    assert "Ben: initiative 5 → 2" in out and "Joe: initiative 2 → 3" in out
    assert next_prompt(out, "> gm move ben before joe") == "? Ben's action"
    assert "Joe cannot move before itself" in out
    assert "the vampire has no turn left this round (allowed: those still to act: Ben, " \
           "Joe, the first thrall, Ada, the second thrall)" in out
    assert "the first thrall: initiative 4 → 9" in out
    assert "the order from now on: Ben, Joe, Ada, the second thrall, the first thrall" in out
    session = resumed(log)
    assert turns(session, 1)[:3] == ["vampire", "ben", "joe"]
    assert turns(session, 1)[-1] == "thrall"
    assert turns(session, 2)[:3] == ["vampire", "ben", "joe"]
    places = {cid: c.state.initiative for cid, c in session.state.roster.items()}
    assert places["ben"] < places["joe"] < places["ada"] < places["thrall"] == 9


def test_each_edit_is_one_undo_step(tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play(WAREHOUSE, "--seed", "2", "--roll-all", "--log", str(log), tmp=tmp_path,
               script=["gm auto", "1", "gm move ben before joe", "u"])
    assert next_prompt(out, "undid 1 step") == "? Joe's action"
    session = resumed(log)
    assert not any(isinstance(e, Reordered) for e in session.events)
    assert session.state.roster["ben"].state.initiative == 5


def test_an_initiative_the_rules_set_again_is_refused_with_the_reason(tmp_path: Path
                                                                      ) -> None:
    zamani = play(FORD, "--seed", "2", "--roll-all", tmp=tmp_path,
                  script=["gm set kofi initiative 5"])
    assert "Kofi's initiative is not a value the fight keeps: the rules work the order " \
           "out again each round (allowed: a move in this round's order (gm move ID " \
           "before|after ID2" in zamani
    c22 = play(BRAWL, "--seed", "2", "--roll-all", tmp=tmp_path,
               script=["gm set mara initiative card 8D"])
    assert "initiative card is drawn again when the rules set the order: set by hand it " \
           "would not change the order" in c22
    genesys = play(DOCKS, "--seed", "2", "--roll-all", tmp=tmp_path,
                   script=["gm set kira initiative 3"])
    assert "a slot of this order is a side's, not one combatant's" in genesys
    # the contest rolls its places in the first turn: set then, the roll would replace it
    contest = play(GATE, "--seed", "2", "--roll-all", tmp=tmp_path,
                   script=["gm set rosa initiative 5"])
    assert "the places were rolled as part of this turn, which is not over: a place set " \
           "now goes in before the turn and its roll would replace it" in " ".join(
               contest.split())
    assert "Rosa: initiative" not in contest


def test_moves_last_this_round_where_the_rules_set_the_order_each_round(tmp_path: Path
                                                                         ) -> None:
    """c22 deals initiative cards every round: a move holds this round and says so; a
    hold passes the acting combatant's turn after the next one."""
    log = tmp_path / "fight.jsonl"
    out = play(BRAWL, "--seed", "2", "--roll-all", "--log", str(log), tmp=tmp_path,
               script=["gm move gull before jace", "gm hold"])
    assert "Round 1: Jace, Mara, Rook, Gull, Tam the cook, Captain Vos" in out
    assert "Gull now acts before Jace (this round only)" in out
    assert "Gull holds the turn until after Jace (this round only)" in out
    assert next_prompt(out, "> gm hold") == "? Jace's action"
    assert resumed(log).pending.who == "jace"  # type: ignore[union-attr]


def test_genesys_a_slot_passes_to_a_later_one(tmp_path: Path) -> None:
    out = play(DOCKS, "--seed", "2", "--roll-all", tmp=tmp_path, script=["gm hold"])
    assert "NPC slot 1 holds the turn until after Kira or Tomas (this round only)" in out
    assert next_prompt(out, "> gm hold") == "? Who takes PC slot 1?"


def test_gm_init_rolls_only_the_gm_side(tmp_path: Path) -> None:
    """Mara and Jace are players' characters (``player: true``): gm init does not draw
    for them, and says why; once they have drawn, it draws for the GM's side."""
    out = play(BRAWL, "--seed", "2", "--gm-dice", "typed", tmp=tmp_path,
               script=["gm init", "r", "r", "gm init"])
    assert "Mara's roll is asked now, and it is the player's to make (allowed: Mara's " \
           "player rolls first; gm init then rolls the GM side)" in out
    rolled = out.split("> gm init")[2]
    for name in ("Tam the cook", "Captain Vos", "Gull", "Rook"):
        assert f"{name} draws" in rolled


ZAMANI = {"system": "zamani", "combatants": [
    {"id": cid, "name": cid.capitalize(), "side": side,
     "attributes": {"dexterity": dex, "fitness": 5, "spirit": 5}, "skills": {"swords": 5},
     "wounds": {"max": 20}, "weapons": [{"name": "sword", "rating": 4, "kind": "melee",
                                          "blocking": True, "skill": "swords"}]}
    for cid, side, dex in (("dan", "b", 10), ("ann", "a", 8), ("carl", "b", 6),
                           ("bob", "b", 5))]}


def test_zamani_delay_passes_to_the_next_combatant_still_standing() -> None:
    """Ann (countdown 8) delays; Carl (6) was knocked out after this round's order was
    set: Bob (5) acts, then Ann (seed 002: a delay waits for another character's action),
    not Ann at once behind Carl's empty slot."""
    s = Session.start(scenario_from_mapping(ZAMANI), seed=1, roll_all=True, odds=False,
                      controllers={c["id"]: "person" for c in ZAMANI["combatants"]})
    while s.pending is not None and not (s.pending.kind == "action"
                                         and s.pending.prompt == "Ann's action"):
        s.decide({"option": s.pending.options[0].id})
    s.adjust("carl", "wounds", 0)
    assert s.pending is not None
    s.decide({"option": next(o.id for o in s.pending.options if o.label == "Delay")})
    told = [e for e in s.events if isinstance(e, TurnStarted | SlotAdded | SlotPassed)]
    added = next(e for e in told if isinstance(e, SlotAdded))
    assert added.after == 2 and added.label == "countdown 8 (delayed)"
    assert [e.actor for e in told if isinstance(e, TurnStarted)] == ["dan", "ann", "bob"]
    assert s.pending is not None and s.pending.who == "bob"


def test_a_move_as_a_round_begins_holds_in_the_rounds_after() -> None:
    """At the first turn of round 2 (the order set in that very turn), a move renumbers
    the places the rules then order the round by, and round 3 keeps them."""
    scenario = scenario_from_mapping(dict(load_example("tristat/warehouse-fight.yaml")))
    s = Session.start(scenario, seed=2, roll_all=True, odds=False,
                      controllers={cid: "person" for cid in scenario.roster})
    while s.pending is not None and not (s.state.round == 2 and s.pending.kind == "action"):
        s.decide({"option": s.pending.options[0].id} if s.pending.options else {"roll": True})
    come = order.order_to_come(s)
    told = [e.text() for e in order.move(s, come[-1], "before", come[0])]
    assert told[0].endswith("(from now on)")
    assert order.order_to_come(s) == [come[-1], *come[:-1]]
    while s.pending is not None and s.state.round == 2:
        s.decide({"option": s.pending.options[0].id} if s.pending.options else {"roll": True})
    standing = [c for c in [come[-1], *come[:-1]]
                if s.system.is_active(s.state.roster[c])]
    assert order.order_to_come(s) == standing


def test_two_of_one_genesys_slot_are_one_turn() -> None:
    scenario = scenario_from_mapping(dict(load_example("genesys/three-vs-three-fight.yaml")))
    s = Session.start(scenario, seed=2, roll_all=True, odds=False,
                      controllers={cid: "person" for cid in scenario.roster})
    while s.pending is not None and s.pending.kind == "dice":
        s.decide({"roll": True})
    with pytest.raises(InputError, match="Kira and Tomas share this slot: it is one turn"):
        order.move(s, "kira", "after", "tomas")


def test_an_initiative_place_below_one_is_refused_and_nothing_is_rolled_again(
        tmp_path: Path) -> None:
    """The contest marks a place not rolled yet with 0: a place of 0 set by hand once
    rolled the whole order again mid-fight (and its undo played the fight out anew)."""
    log = tmp_path / "fight.jsonl"
    out = play("examples/contest/duel-fight.yaml", "--seed", "3", "--roll-all",
               "--control", "rosa=person", "--control", "grub=person", "--log", str(log),
               tmp=tmp_path, script=["", "1", "", "1",  # round 1; Rosa's action in round 2
                                     "gm set grub initiative 0",
                                     "gm set grub initiative -3"])
    assert "Grub the Brute's initiative place cannot be 0: 1 acts first (allowed: a " \
           "whole number from 1 up)" in out
    assert "Grub the Brute's initiative place cannot be -3" in out
    assert out.count("rolls d20 for initiative") == 2  # the first round's, only
    session = resumed(log)
    assert session.state.round == 2
    assert {c: s.state.initiative for c, s in session.state.roster.items()} == {
        "rosa": 1, "grub": 2}


def test_a_place_set_onto_one_held_moves_its_holder_on(tmp_path: Path) -> None:
    """Contest: Rosa holds place 1, Grub 2; in Grub's turn the GM sets Grub's place to 1.
    The GM means Grub first: Rosa moves on to 2 (said, in the same undo step), and round
    2 opens with Grub's turn; no tie left for the roster's order to break unseen."""
    log = tmp_path / "fight.jsonl"
    out = play("examples/contest/duel-fight.yaml", "--seed", "2", "--roll-all",
               "--control", "rosa=person", "--control", "grub=person", "--log", str(log),
               tmp=tmp_path, script=["", "1",  # Rosa's turn; Grub's action is asked
                                     "gm set grub initiative 1", "", "1"])
    said = out.split("> gm set grub initiative 1", 1)[1]
    assert said.index("Grub the Brute: initiative place 2 → 1") < said.index(
        "Rosa: initiative place 1 → 2") < said.index("? Grub the Brute's action")
    session = resumed(log)
    assert {c: s.state.initiative for c, s in session.state.roster.items()} == {
        "rosa": 2, "grub": 1}
    assert turns(session, 2)[:1] == ["grub"]
    session.undo(3)  # Rosa's reaction, Grub's action, then the edit: as rolled
    assert {c: s.state.initiative for c, s in session.state.roster.items()} == {
        "rosa": 1, "grub": 2}
