"""``fracas play`` as a table meets it: actions composed step by step from short lists
with their odds, the table's own words (never a code identifier), dice asked with who
rolls what for and what it needs, Genesys symbols typed as the table writes them, and a
roll shown before anyone spends it."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from fracas.cli.live import command, show_pending
from fracas.cli.menus import Composer, dice_words
from fracas.core.scenario import read_yaml
from fracas.encounter.decisions import MAX_ENTRIES, Draft, action_odds
from fracas.encounter.session import Session
from fracas.encounter.session_log import load_session
from fracas.registry.scenarios import load_scenario, scenario_from_mapping
from fracas.systems.genesys.dice import Symbols
from tests.live.table import identifiers, party_args, play

FIGHTS = sorted(str(p) for p in Path("examples").glob("*/*-fight.yaml"))
ONE_A_SYSTEM = ["examples/tristat/alley-fight.yaml", "examples/contest/gate-fight.yaml",
                "examples/genesys/duel-fight.yaml", "examples/c22/boarding-fight.yaml",
                "examples/zamani/river-ambush-fight.yaml"]


def _play(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", "play", *args], input=stdin,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": "160"})


@pytest.mark.parametrize("path", FIGHTS)
def test_every_example_fight_plays_to_its_end_in_plain_words_and_short_lists(path: str
                                                                              ) -> None:
    """Played at the terminal's own loop: actions composed key by key (the usual attack
    most times, any other action of the menu else), any reaction or choice, every die
    typed as the table shows it."""
    played = play(path)
    assert played.session.state.over, played.output[-2000:]
    assert "Fight over" in played.output
    assert played.longest <= MAX_ENTRIES, (played.longest, played.longest_at)
    assert identifiers(played) == [], identifiers(played)[:20]
    assert "error" not in played.output, played.output[-3000:]


@pytest.mark.parametrize("path", FIGHTS)
def test_every_example_fight_explained_in_full_speaks_no_code(path: str) -> None:
    """The same fights with every event told with its rule, as ``--verbose`` and ``e``
    tell them: no identifier (``focused_round``, ``same_target``, a combatant's id), no
    empty value (``focus  → focusing``)."""
    played = play(path, verbose=True)
    assert played.session.state.over, played.output[-2000:]
    assert identifiers(played) == [], identifiers(played)[:20]
    empty = re.findall(r"[^\n]*\S  → [^\n]*", played.output)
    assert empty == [], empty[:5]


@pytest.mark.parametrize("path", ONE_A_SYSTEM)
def test_a_whole_fight_through_the_real_command_in_plain_words(path: str, tmp_path: Path
                                                              ) -> None:
    """The lines a table typed (found by playing the same seed), fed to ``fracas play
    --script`` in a fresh process: the same fight to its end, nothing identifier-shaped."""
    played = play(path, seed=7, roll=0.2, table=True)
    script = tmp_path / "moves.txt"
    script.write_text("\n".join(played.lines) + "\n", encoding="utf-8")
    log = tmp_path / "fight.jsonl"
    done = _play(path, "--seed", "7", "--control", "gm=person", "--script", str(script),
                 "--log", str(log), *party_args(path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Fight over" in done.stdout and "error" not in done.stdout, done.stdout[-3000:]
    assert load_session(log).state == played.session.state
    played.output = done.stdout.split("log saved to")[0]  # the path is the user's own
    assert identifiers(played) == [], identifiers(played)[:20]


def _first_menu(path: str) -> Session:
    scenario = load_scenario(path)
    s = Session.start(scenario, seed=2, roll_all=True,
                      controllers=dict.fromkeys(scenario.roster, "person"))
    while s.pending is not None and (s.pending.menu is None or s.state.next_slot == 0):
        s.decide({"option": "1"} if s.pending.options else {"roll": True})
    assert s.pending is not None
    return s


@pytest.mark.parametrize("path", ONE_A_SYSTEM)
def test_each_action_is_composed_in_short_steps_with_the_odds_of_each_entry(path: str
                                                                           ) -> None:
    s = _first_menu(path)
    p = s.pending
    assert p is not None and p.menu is not None
    menu = p.menu
    for index in range(len(p.options)):  # every action of the flat list can be composed
        draft = Draft()
        keys = menu.keys_for(index)
        for key in keys[:-1]:
            step = menu.step(draft)
            assert len(step.entries) <= MAX_ENTRIES
            for entry in step.entries:  # each entry's odds: of the action it leads to
                assert entry.option is not None
                leads = [a for a in s.system.actions(p.who, s.state.roster)
                         ][int(entry.option) - 1]
                shown = p.options[int(entry.option) - 1].odds
                assert shown == action_odds(s.system, leads, s.state.roster)
            draft = menu.choose(draft, step, key)
        assert menu.step(draft).composed == str(index + 1), (index, keys)
    usual = menu.usual()
    if usual is not None:  # the usual attack: the first weapon, no options
        facets = menu.by_option(usual.option or "")
        assert facets.group == "attack" and not facets.toggles


def test_the_usual_attack_takes_the_previous_target(tmp_path: Path) -> None:
    """Ada shot the thrall last round: her usual attack is on the thrall again, though
    the vampire is listed first."""
    s = Session.start(load_scenario("examples/tristat/alley-fight.yaml"), seed=1,
                      roll_all=True, controllers={"ada": "person"})
    while s.pending is not None and s.pending.menu is None:  # a reaction first
        s.decide({"option": "1"})
    assert s.pending is not None and s.pending.who == "ada" and s.pending.menu is not None
    menu = s.pending.menu
    assert menu.usual() is not None and menu.usual().label.startswith(  # type: ignore[union-attr]
        "Attack the vampire")
    thrall = next(f for f in menu.facets if f.target == "thrall" and f.group == "attack"
                  and not f.toggles)
    s.decide({"option": str(thrall.index + 1)})
    while s.pending is not None and s.pending.menu is None:
        s.decide({"option": "1"})
    assert s.pending is not None and s.pending.menu is not None
    assert s.pending.menu.usual().label.startswith("Attack the thrall")  # type: ignore[union-attr]


def test_a_step_by_step_action_at_the_terminal(tmp_path: Path) -> None:
    """What, with what, at whom, an option switched on, then Enter; the composed action
    and its odds are shown at every step."""
    done = _play("examples/tristat/alley-fight.yaml", "--seed", "1", "--roll-all",
                 stdin="\n".join(["1", "2", "2", "1", "", "1", "q"]) + "\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "what:" in out and "with what:" in out and "at whom:" in out
    assert "[ ] Called shot: vital spot — −4 to hit, double damage after armour  hit 7%" in out
    assert "[x] Called shot: vital spot — −4 to hit, double damage after armour\n" in out
    assert "→ Attack Ada with bare hands · Called shot: vital spot  hit 7%" in out
    assert "the vampire: Attack Ada with bare hands · Called shot: vital spot" in out
    assert "error" not in out


def test_dice_requests_say_who_rolls_what_for_and_what_it_needs() -> None:
    s = Session.start(load_scenario("examples/tristat/duel-fight.yaml"), seed=1,
                      controllers={"rin": "person", "gorr": "person"})
    prompts = []
    for answer in ({"dice": [6, 6]}, {"dice": [1, 1]}, {"option": "1"}, {"option": "1"},
                   {"dice": [1, 1]}, {"dice": [6, 6]}, {"dice": [3]}):
        assert s.pending is not None
        prompts.append(s.pending.prompt)
        s.decide(answer)
    assert prompts == ["Rin's initiative: 2d6", "Gorr's initiative: 2d6", "Rin's action",
                       "Gorr's reaction to Rin's attack Gorr with katana",
                       "Rin's attack: 2d6, needs 6 or less",
                       "Gorr's defence: 2d6, needs 4 or less", "Rin's critical die: d6"]


@pytest.mark.parametrize(("typed", "shown"), [
    ("ss a t", "ss a t"), ("2s 1a", "ss a"), ("s", "s"), ("s,a", "s a"), ("sat", "s a t"),
    ("", "-"), ("SS A T", "ss a t"), ("2S1A", "ss a"), ("S, A", "s a"), ("  ", "-"),
    ("ff hh d", "ff hh d")])
def test_genesys_symbols_are_read_as_the_table_writes_them(typed: str, shown: str) -> None:
    values = dice_words(typed, "symbols")
    assert len(values) == 1  # one value for the whole pool, whatever the spacing
    assert Symbols.parse(values[0]).text() == shown


def test_genesys_dice_at_the_real_command_win_over_command_keys(tmp_path: Path) -> None:
    """``s`` at a dice prompt is one success (not the status screen), ``a`` one advantage,
    ``2S 1A`` two successes and an advantage, Enter blanks; ``/s`` still shows the status.
    The roll and what it means come before anyone is asked to spend it."""
    log = tmp_path / "fight.jsonl"
    done = _play("examples/genesys/duel-fight.yaml", "--seed", "3", "--control",
                 "gm=person", "--log", str(log), "--gm-dice", "typed",
                 stdin="s\na\n1\n\n/s\n2S 1A\nq\n")  # Red takes NPC slot 1
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "error" not in out, out
    assert "Red rolls A: s → 1 net success" in out
    assert "Blue rolls A: a → no net success, 1 net advantage" in out
    assert "? Red's attack on Blue: dice AA-DD, needs 1 net success to hit" in out
    status = out.index("> /s")
    assert "▶  Red" in out[status:]  # /s: the turn order, not a die
    asked = out.index("> 2S 1A")
    assert re.search(r"Red rolled ss a → 2 net successes, 1 net advantage: a hit of 5 "
                     r"damage before soak; Red spends 1 advantage", out[asked:]), out[asked:]
    saved = load_session(log)
    assert [e.get("dice") for e in saved.entries if e["kind"] == "dice"] == [
        ["s"], ["a"], ["2S 1A"]]


@pytest.mark.parametrize("typed", ["ss a", ["ss", "a"], "2S 1A", "s,s,a"])
def test_the_session_takes_a_pools_symbols_however_they_are_sent(typed: object) -> None:
    """The web sends what was typed as it stands: the session reads it as one pool."""
    scenario = load_scenario("examples/genesys/duel-fight.yaml")
    s = Session.start(scenario, seed=3, controllers=dict.fromkeys(scenario.roster, "person"))
    s.decide({"dice": "s"})
    s.decide({"dice": ""})  # a blank: nothing shown
    s.decide({"option": "1"})  # Red takes NPC slot 1 (seed 004: any NPC may)
    s.decide({"option": "1"})  # Red attacks Blue
    assert s.pending is not None and s.pending.dice is not None
    assert s.pending.dice.typed == "symbols"
    s.decide({"dice": typed})
    rolled = [e for e in s.events if type(e).__name__ == "GenesysRolled"]
    assert [e.shown for e in rolled] == ["s", "-"]  # initiative
    assert s.pending is not None and s.pending.kind == "spend"  # the roll, then the spending
    assert s.pending.prompt.startswith("Red rolled ss a → 2 net successes, 1 net advantage: "
                                       "a hit of 5 damage before soak; Red spends 1 advantage")


def test_a_long_step_is_shown_a_page_at_a_time() -> None:
    """Rin against fourteen brawlers: the at-whom step shows eleven and "more"; every
    brawler can still be chosen, and the terminal's ``+`` turns the page."""
    raw = read_yaml(Path("examples/tristat/duel-fight.yaml"))
    gorr = raw["combatants"][1]
    raw["combatants"] = [raw["combatants"][0]] + [
        {**gorr, "id": f"brawler{n}", "name": f"Brawler {n}"} for n in range(1, 15)]
    scenario = scenario_from_mapping(raw)
    s = Session.start(scenario, seed=1, roll_all=True,
                      controllers=dict.fromkeys(scenario.roster, "person"))
    while s.pending is not None and s.pending.who != "rin":  # the brawlers hold back
        m = s.pending.menu
        defend = None if m is None else next(f for f in m.facets if f.group == "defend")
        s.decide({"option": "1" if defend is None else str(defend.index + 1)})
    assert s.pending is not None and s.pending.menu is not None
    menu = s.pending.menu
    draft = menu.choose(Draft(), menu.step(Draft()), "1")  # attack
    draft = menu.choose(draft, menu.step(draft), "1")  # with the katana
    first = menu.step(draft)
    assert first.name == "target" and first.more and len(first.entries) == MAX_ENTRIES - 1
    second = menu.step(menu.choose(draft, first, "+"))
    assert [e.label for e in first.entries + second.entries] == [
        f"Brawler {n}" for n in range(1, 15)]
    last = next(f for f in menu.facets if f.target == "brawler14" and not f.toggles
                and f.weapon == "katana")
    assert "+" in menu.keys_for(last.index)
    composer = Composer()
    console = Console(file=io.StringIO(), width=120)
    for key in ("1", "1", "+"):
        command(s, key, console, False, composer)
    show_pending(console, s, composer)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Brawler 14" in shown and "+: more" in shown


def _first_reaction(path: str) -> list[str]:
    scenario = load_scenario(path)
    s = Session.start(scenario, seed=2, roll_all=True,
                      controllers=dict.fromkeys(scenario.roster, "person"))
    while s.pending is not None and s.pending.kind != "reaction":
        s.decide({"option": "1"})
    assert s.pending is not None
    return [o.label for o in s.pending.options]


def test_a_default_defence_is_named_and_no_reaction_only_when_there_is_none() -> None:
    assert _first_reaction("examples/contest/duel-fight.yaml")[:2] == ["Dodge",
                                                                       "Counter-attack"]
    # Tri-Stat's defender always rolls its defence (seed 003): its plain reaction says so
    assert _first_reaction("examples/tristat/duel-fight.yaml") == ["Defend without willpower",
                                                                   "Defend with willpower"]


def test_a_genesys_critical_injury_typed_at_the_table_is_told_by_name(tmp_path: Path
                                                                      ) -> None:
    """The GM types the Critical Injury's d100 (one value, as the prompt's example
    shows) and the table hears which injury it was, not only "critical injury"."""
    typed = ["s a", "3s", "2s", "s", "s", "2s a",  # everybody's initiative
             "1",  # Tomas takes the first PC slot
             "",  # his usual attack: Dockside bruiser, with the short sword
             "sst f h", "1", "1",  # the triumph on his Critical rating, the threat on strain
             "100", "q"]
    done = _play("examples/genesys/three-vs-three-fight.yaml", "--seed", "3", "--gm-dice",
                 "typed", stdin="\n".join(typed) + "\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "error" not in out, out[-2000:]
    asked = out.index("? Tomas's Critical Injury roll against Dockside bruiser: d100")
    assert "type what the table shows (3) or r to roll" in out[asked:]
    told = out[out.index("> 100"):]
    assert "Critical Injury on Dockside bruiser: d100 100 → Crippled (Hard)" in told, told


def test_cards_are_drawn_and_a_one_value_roll_shows_one_value(tmp_path: Path) -> None:
    """A c22 prompt offers to draw the cards (``r``), not to roll them; a roll of one
    value shows one value as its example."""
    cards = _play("examples/c22/boarding-fight.yaml", "--seed", "3", "--gm-dice", "typed",
                  stdin="q\n")
    assert cards.returncode == 0, cards.stderr
    assert "? Mara's initiative: the cards until a number card\n" \
           "  type what the table shows (4H,2S) or r to draw\n" in cards.stdout, cards.stdout
    d20 = _play("examples/contest/duel-fight.yaml", "--seed", "3", "--gm-dice", "typed",
                stdin="q\n")
    assert d20.returncode == 0, d20.stderr
    # (everybody's initiative: Rosa's die, then Grub's, which may be typed together)
    assert "  type what the table shows (3), both at once (3 5: Rosa's, then Grub the " \
           "Brute's) or r to roll\n" in d20.stdout, d20.stdout


def test_a_value_the_die_cannot_show_is_told_once(tmp_path: Path) -> None:
    """A one-value roll's bad value: the prompt names the die once, then what is wrong
    (not 'value 1 for d100 (...): 142 is not a value d100 (...) can show')."""
    typed = ["s a", "3s", "2s", "s", "s", "2s a", "1", "", "sst f h", "1", "1",
             "142", "100", "q"]
    done = _play("examples/genesys/three-vs-three-fight.yaml", "--seed", "3", "--gm-dice",
                 "typed", stdin="\n".join(typed) + "\n")
    assert done.returncode == 0, done.stderr
    error = next(line for line in done.stdout.splitlines() if line.startswith("error"))
    assert error == ("error (input 12): Tomas's Critical Injury roll against Dockside "
                     "bruiser: d100 (Critical Injury on Dockside bruiser): 142 is not a value "
                     "it can show (allowed: 1 to 100 (00 is 100))"), error
    assert "Critical Injury on Dockside bruiser: d100 100 → Crippled (Hard)" in done.stdout
