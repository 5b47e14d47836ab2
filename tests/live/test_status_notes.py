"""The table at a glance and the fight as the table heard it (issue 36): the status of
``fracas play`` shows what each system's GM tracks; ``fracas replay LOG --narrate`` tells a
whole fight (a play log or a fight log) in the brief narration of ``play``, with
``--format md|html`` for session notes and the end-of-fight summary; the words a GM
read wrong are mended. Each through the real command in a fresh process."""

from __future__ import annotations

import html.parser
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fracas.encounter.session_log import load_session
from fracas.encounter.summary import summarize
from tests.live.table import Played, identifiers, party_args, play

ROOT = Path(__file__).resolve().parents[2]
#: one fight a system, and a word of what its GM tracks that its status must show
GLANCE = {"examples/tristat/duel-fight.yaml": "Energy 40/40",
          "examples/contest/gate-fight.yaml": "armour 7/7 HP",
          "examples/genesys/duel-fight.yaml": "wielding knife",
          "examples/c22/boarding-fight.yaml": "cards left",
          "examples/zamani/river-ambush-fight.yaml": "in hand: short sword"}
PLACE = {"examples/tristat/duel-fight.yaml": "initiative place 1",
         "examples/contest/gate-fight.yaml": "initiative place 1",
         "examples/genesys/duel-fight.yaml": "slot 1",
         "examples/c22/boarding-fight.yaml": "initiative ",
         "examples/zamani/river-ambush-fight.yaml": "countdown 10"}


def _fracas(*args: str, stdin: str | None = None, cwd: Path = ROOT
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fracas", *args], input=stdin,
                          capture_output=True, text=True, timeout=600, cwd=cwd,
                          env={**os.environ, "COLUMNS": "200"})


def _played(path: str, tmp_path: Path
            ) -> tuple[subprocess.CompletedProcess[str], Path, Played]:
    """A whole fight typed at ``fracas play`` (the lines found by playing seed 7 at the
    terminal's loop) with the log saved, and that play."""
    played = play(path, seed=7, roll=0.2, table=True)
    script = tmp_path / "moves.txt"
    script.write_text("\n".join(played.lines) + "\n", encoding="utf-8")
    log = tmp_path / "fight.jsonl"
    done = _fracas("play", path, "--seed", "7", "--control", "gm=person", "--script",
                   str(script), "--log", str(log), *party_args(path))
    assert done.returncode == 0, done.stderr[-2000:]
    return done, log, played


@pytest.mark.parametrize("path", sorted(GLANCE))
def test_play_and_replay_narrate_tell_the_same_fight_with_the_table_at_a_glance(
        path: str, tmp_path: Path) -> None:
    """``fracas play`` shows each round's status with what the system's GM tracks (the
    place in the order, the system's own values) and ends with the summary; ``fracas
    replay LOG --narrate`` of its log tells every outcome the table heard, each round's
    status and the same summary; ``replay`` shows the final table, complete."""
    done, log, played = _played(path, tmp_path)
    out = done.stdout
    assert GLANCE[path] in out and PLACE[path] in out, out[:3000]
    assert re.search(r"^Round 1( · .+'s turn)?$", out, re.M), out[:3000]
    session = load_session(log)
    summary = summarize(session.scenario, session.system, session.events)
    assert summary.over and summary.winner == session.state.winner
    first = summary.combatants[0]
    line = f"{first.name} ({first.side}): dealt {first.dealt}, took {first.taken}"
    assert line in out, out[-2000:]
    # the same fight from its log, as the table heard it
    told = _fracas("replay", str(log), "--narrate")
    assert told.returncode == 0, told.stderr
    heard = told.stdout
    outcomes = re.findall(r"^  \S.* → .*: .*$", out.split("log saved to")[0], re.M)
    assert outcomes and all(o in heard for o in outcomes), [
        o for o in outcomes if o not in heard][:5]
    assert GLANCE[path] in heard and line in heard and "Round 1" in heard
    assert heard.count("─ Round ") == session.state.round
    assert "error" not in heard and "?" not in heard.replace("? for help", "")
    played.output = heard
    assert identifiers(played) == [], identifiers(played)[:20]
    # the final table: every combatant with its conditions, and complete
    final = _fracas("replay", str(log))
    assert final.returncode == 0 and "the fight is complete" in final.stdout
    for c in session.state.roster.values():
        assert c.name in final.stdout
    data = json.loads(_fracas("replay", str(log), "--json").stdout)
    assert data["log"]["complete"] is True and data["log"]["stopped"] is None


class _Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def test_session_notes_in_markdown_and_html_and_from_a_fight_log(tmp_path: Path) -> None:
    """``--format md`` gives a heading a round, its status as a table, the summary;
    ``--format html`` one page; a fight log (``fracas fight --log``) is told too."""
    log = tmp_path / "fight.jsonl"
    fought = _fracas("fight", "examples/zamani/river-ambush-fight.yaml", "--seed", "3",
                     "--log", str(log))
    assert fought.returncode == 0, fought.stderr
    md = _fracas("replay", str(log), "--narrate", "--format", "md")
    assert md.returncode == 0, md.stderr
    text = md.stdout
    assert text.startswith("# River skirmish — Zamani\n") and "\n## Round 1\n" in text
    assert "| combatant | side | health | at a glance |" in text
    assert "\n## The end\n" in text and "dealt" in text
    page = _fracas("replay", str(log), "--narrate", "--format", "html")
    assert page.returncode == 0 and page.stdout.startswith("<!doctype html>")
    tags = _Tags()
    tags.feed(page.stdout)
    assert {"h1", "h2", "table", "ul", "li"} <= set(tags.tags)
    assert "Round 1" in page.stdout and "<script" not in page.stdout
    plain = _fracas("replay", str(log), "--narrate")
    assert "Fight over after" in plain.stdout and "dealt" in plain.stdout
    wrong = _fracas("replay", str(log), "--format", "pdf")
    assert wrong.returncode != 0 and "Traceback" not in wrong.stderr
    assert "--format" in wrong.stderr and "text, md, html" in wrong.stderr


def test_zamani_words_guard_yourself_nobody_sacrifices_and_pass() -> None:
    """Zamani: one key declines the sacrifice for everybody before the round
    (``n: Nobody sacrifices``); ``p`` lets a turn with only a half move left go by; a
    guard on nobody else reads 'Guard yourself', never 'nobody'."""
    done = _fracas("play", "examples/zamani/river-ambush-fight.yaml", "--seed", "2",
                   "--roll-all", stdin="n\n2\n1\nq\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "n: Nobody sacrifices" in out
    assert out.count("Sacrifice nothing\n") >= 4  # Kofi, Ama, Dura, Obi with one key
    assert "Guard yourself" in out and "nobody" not in out.lower().replace(
        "nobody sacrifices", "")


def test_c22_split_says_which_raises_and_odds_say_full_hit() -> None:
    """c22: the odds count full hits ('full hit 67%'), and the hand's split says whether
    each way raises the maneuver chosen."""
    done = _fracas("play", "examples/c22/duel-fight.yaml", "--seed", "1", "--roll-all",
                   stdin="1\n2\n\n1\nq\n")  # Attack, Heavy Swing on, go, a split
    out = done.stdout
    assert re.search(r"full hit \d+%", out), out[:3000]
    assert not re.search(r"(?<!full) hit \d+%", out), out[:3000]
    assert re.search(r"maneuver card \w+ \((does not raise|raises) the ", out), out[-3000:]


def test_the_resume_hint_names_the_command_as_it_was_called(tmp_path: Path) -> None:
    """After ``make demo`` the command is ``.venv/bin/fracas``: the hint to go on says so,
    not ``fracas``, which is not on the PATH there."""
    script = Path(sys.executable).parent / "fracas"
    if not script.exists():
        pytest.skip("no fracas console script beside this Python")
    log = tmp_path / "duel.jsonl"
    done = subprocess.run([str(script), "play", str(ROOT / "examples/tristat/duel-fight.yaml"),
                           "--log", str(log)], input="q\n", capture_output=True, text=True,
                          timeout=300, cwd=script.parent.parent,
                          env={**os.environ, "PATH": "/usr/bin:/bin", "COLUMNS": "300"})
    assert done.returncode == 0, done.stderr
    assert f"go on with: {script} play --resume {log}" in done.stdout or (
        f"go on with: bin/fracas play --resume {log}" in done.stdout), done.stdout[-500:]


def test_the_summary_counts_a_counter_attack_for_the_defender_and_the_gm_s_hand_for_nobody(
        ) -> None:
    """The gate fight, seed 3: Tony's halberd attack is counter-attacked by Amy's crossbow
    (5 damage): Amy dealt those 5, though the turn was Tony's; damage by the GM's hand is
    taken, dealt by nobody; each combatant took what its health lost."""
    from fracas.encounter.engine import Encounter
    from fracas.encounter.gm import damage
    from fracas.encounter.session import Session
    from fracas.registry.scenarios import load_scenario

    scenario = load_scenario("examples/contest/gate-fight.yaml")
    fight = Encounter(scenario, seed=3)
    fight.run()
    summary = {f.id: f for f in summarize(scenario, scenario.system, fight.events).combatants}
    assert summary["amy"].dealt == 5 and summary["tony"].taken == 7
    assert summary["tony"].down_round == 1 and summary["grub"].down_round is None
    system = scenario.system
    for cid, c in fight.state.roster.items():
        start = system.health(scenario.roster[cid])[0]
        assert summary[cid].taken == start - system.health(c)[0], cid
    session = Session.start(scenario, seed=3, roll_all=True,
                            controllers=dict.fromkeys(scenario.roster, "person"))
    damage(session, "grub", 4)
    by_hand = {f.id: f for f in summarize(scenario, scenario.system,
                                          session.events).combatants}
    assert by_hand["grub"].taken == 4 and not any(f.dealt for f in by_hand.values())


def test_a_weapon_picked_up_reads_as_the_table_says_it() -> None:
    """Contest: picking a dropped weapon up reads 'Pick up the club' (it read 'Pick up
    with club'), the data pack's weapon_words for the action."""
    from fracas.core.model import Action
    from fracas.encounter.labels import action_words
    from fracas.registry.scenarios import load_scenario
    from fracas.systems.contest.sheet import Options

    scenario = load_scenario("examples/contest/gate-fight.yaml")
    action = Action("grub", None, "club", "recover_weapon", Options(), offensive=False)
    assert action_words(action, scenario.roster, scenario.system.words) == "Pick up the club"
