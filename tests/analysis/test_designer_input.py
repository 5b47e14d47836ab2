"""What a designer meets when an analysis command is given something it cannot use, run
as a user runs it (a fresh ``python -m fracas`` process): one line naming the option or
file and what is allowed, exit 2, and, for an output file that cannot be written, before
any of the work (a long simulation is not lost at its end)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parents[2] / "examples"
DUEL = str(EXAMPLES / "tristat" / "duel-fight.yaml")
BIG = str(EXAMPLES / "tristat" / "warehouse-fight.yaml")  # minutes of work at -n 10,000,000
FOREVER = "10000000"


def fracas(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return subprocess.run([sys.executable, "-m", "fracas", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one error line of a refused command, checked for ``words``."""
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    line = done.stderr.strip()
    assert line.startswith("fracas: error: ") and "\n" not in line, line
    for word in words:
        assert word in line, line
    return line


@pytest.mark.parametrize("command", [
    ["simulate", BIG, "-n", FOREVER, "--plot"],
    ["odds", BIG, "--fight", "--plot"],
    ["sweep", BIG, "--vary", "max_rounds=1..40", "--method", "simulate", "--fights",
     FOREVER, "--plot"],
    ["balance", BIG, "--vary", "max_rounds=1..40", "--target", "hunters=0.5", "--max-states",
     "1", "--fights", FOREVER, "--plot"],
    ["report", BIG, "-n", FOREVER, "--max-states", "1", "-o"],
], ids=lambda c: c[0])
def test_an_output_in_a_missing_folder_is_refused_before_the_work(tmp_path: Path,
                                                                  command: list[str]) -> None:
    name = "report.html" if command[0] == "report" else "picture.png"
    path = tmp_path / "no-such-folder" / name
    line = refused(fracas(*command, str(path), timeout=60), str(path),
                   "the folder", "does not exist")
    assert line.startswith(f"fracas: error: {command[-1]}: cannot write ")
    assert not path.parent.exists()


def test_a_folder_given_as_the_report_file_is_refused(tmp_path: Path) -> None:
    refused(fracas("report", DUEL, "-o", str(tmp_path)), "-o", str(tmp_path),
            "it is a folder")


def test_balance_names_target_for_a_side_the_scenario_lacks() -> None:
    line = refused(fracas("balance", DUEL, "--vary", "rin.skills.melee=1..3", "--target",
                          "nobody=0.5"), "no side 'nobody'", "blades, fists")
    assert line.startswith("fracas: error: --target: ") and "--side" not in line


@pytest.mark.parametrize("option,values", [
    ("--vary", ["rin.skills.melee=1..3", "rin.skills.brawl=1..3"]),
    ("--target", ["blades=0.5", "fists=0.4"]),
])
def test_balance_refuses_an_option_given_twice(option: str, values: list[str]) -> None:
    given = {"--vary": ["rin.skills.melee=1..3"], "--target": ["blades=0.5"], option: values}
    args = [word for name, vals in given.items() for v in vals for word in (name, v)]
    refused(fracas("balance", DUEL, *args), f"{option}: given 2 times", *values,
            f"one {option}")


IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|=")  # snake_case or field=value: code's words


@pytest.mark.parametrize("example", ["tristat/called_shot", "contest/dodge",
                                     "c22/advance-on-hex", "genesys/brawl",
                                     "zamani/controlled_disarm"])
def test_advise_names_options_and_answers_in_the_data_pack_s_words(example: str) -> None:
    done = fracas("advise", str(EXAMPLES / f"{example}.yaml"), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    shown = [data["situation"]]
    for option in data["options"]:
        shown += [option["label"], option["best_reply"]["label"]]
        shown += [reply["label"] for reply in option["replies"]]
    shown += [answer["label"] for answer in data["defenses"]]
    assert [label for label in shown if IDENTIFIER.search(label)] == []
    text = fracas("advise", str(EXAMPLES / f"{example}.yaml"), "--top", "3").stdout
    assert data["options"][0]["label"] in text
    if example == "c22/advance-on-hex":  # the defender's choice once the damage is known
        assert "Choose when a full hit lands · Choose when a graze lands" in text


@pytest.mark.parametrize("example,shown", [
    ("c22/one-tough-lizard", ["One Tough Lizard: Jace → Lizard", " full hit ", "health lost"]),
    ("tristat/disarm", ["Vex → the ogre", " keeps the weapon "]),
    ("contest/fumble-disarm", ["Grub the Brute → Rosa", "attacker critical"]),
    ("zamani/surprise_stealth", [" surprise "]),
])
def test_odds_names_results_and_details_in_words_a_table_reads(example: str,
                                                               shown: list[str]) -> None:
    env = {**os.environ, "COLUMNS": "240"}
    done = subprocess.run([sys.executable, "-m", "fracas", "odds",
                           str(EXAMPLES / f"{example}.yaml")], capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert IDENTIFIER.findall(done.stdout) == []
    for words in shown:
        assert words in done.stdout
    assert "True" not in done.stdout and "False" not in done.stdout  # yes and no


@pytest.mark.parametrize("args,option", [
    (["--side", "undead"], "--side"),  # an attack's expected damage: nobody wins it
    (["--metric", "mean_rounds", "--side", "undead"], "--side"),  # the same for every side
    (["--method", "simulate"], "--method"),  # an attack metric is always exact
    (["--fights", "10"], "--fights"),
    (["--max-states", "10"], "--max-states"),
])
def test_sweep_refuses_an_option_its_metric_would_ignore(args: list[str], option: str) -> None:
    vampire = str(EXAMPLES / "tristat" / "vampire.yaml")
    refused(fracas("sweep", vampire, "--vary", "attacker.skills.melee=1..2", *args),
            f"{option}: the metric ", "would be ignored", "allowed: ")


@pytest.mark.parametrize("command", [["sweep"], ["balance", "--target", "blades=0.5"]])
def test_a_file_that_is_no_mapping_is_refused_as_loading_it_would(tmp_path: Path,
                                                                 command: list[str]) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("- just\n- a list\n")
    refused(fracas(command[0], str(path), "--vary", "rin.skills.melee=1..2", *command[1:]),
            f"{path}: a scenario must be a mapping with system: and combatants:",
            "(allowed: a YAML mapping)")


def test_a_sweep_point_the_rules_refuse_is_named_as_it_was_typed() -> None:
    vampire = str(EXAMPLES / "tristat" / "vampire.yaml")
    done = fracas("sweep", vampire, "--vary", "attacker.skills.melee=1,x")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "error at attacker.skills.melee=x: " in text and "{" not in text


def test_a_fight_sweep_names_its_metric_and_whose_wins_it_counts() -> None:
    duel = str(EXAMPLES / "tristat" / "duel-fight.yaml")
    done = fracas("sweep", duel, "--vary", "rin.skills.melee=1..2", "--side", "fists")
    assert done.returncode == 0, done.stderr
    assert "fists win chance" in done.stdout and "win_probability" not in done.stdout
    data = json.loads(fracas("sweep", duel, "--vary", "rin.skills.melee=1..2", "--json").stdout)
    assert (data["metric"], data["side"]) == ("win_probability", "blades")  # the first's


def test_a_sweep_picture_it_cannot_draw_is_refused_before_the_work(tmp_path: Path) -> None:
    vampire = str(EXAMPLES / "tristat" / "vampire.yaml")
    four = [w for path in ("attacker.skills.melee", "defender.armor.rating", "joe.body",
                           "joe.mind") for w in ("--vary", f"{path}=1..9")]  # 6,561 points
    # with no time at all to spend, only a refusal before the work can name --plot
    line = refused(fracas("sweep", vampire, *four, "--plot", str(tmp_path / "x.png"),
                          "--max-seconds", "0", timeout=60),
                   "--plot: a plot shows one or two varied values")
    assert "--max-seconds" not in line and not (tmp_path / "x.png").exists()


def test_a_simulated_report_counts_the_fights_nobody_won(tmp_path: Path) -> None:
    """The alley fight past a tiny exact budget, simulated: 300 fights, some ending at the
    round limit; the report's rows add up to every fight, as simulate's do."""
    page = tmp_path / "alley.html"
    alley = str(EXAMPLES / "tristat" / "alley-fight.yaml")
    done = fracas("report", alley, "--max-states", "2000", "-n", "300", "-o", str(page),
                  "--quiet")
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    table = text[text.index("<h2>Simulated fights</h2>"):]
    table = table[:table.index("</table>")]
    wins = [int(cells[1].replace(",", "")) for cells in
            (re.findall(r"<td>(.*?)</td>", row) for row in table.split("<tr")[2:])]
    assert sum(wins) == 300 and "<td>no winner</td>" in table


@pytest.mark.parametrize("command", ["sweep", "balance"])
def test_help_shows_what_to_type_not_a_python_type(command: str) -> None:
    done = fracas(command, "--help")
    assert done.returncode == 0 and "list[str]" not in done.stdout
    assert "--vary PATH=" in done.stdout


def test_the_report_says_the_attack_and_its_results_in_words(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    done = fracas("report", str(EXAMPLES / "tristat" / "called_shot.yaml"), "-o", str(page),
                  "--quiet")
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"<script.*?</script>|<img[^>]*>", "", text, flags=re.S)  # exact JSON
    assert ("<b>Attack:</b> Sir Ulric → the black knight — Attack with longsword · "
            "Trick shot (−1) · Called shot: vital spot") in text
    assert "<td>critical hit</td>" in text and "Defend with willpower" in text
    shown = re.sub(r"<[^>]*>|\S+\.yaml", " ", text)  # the words, less the file's name
    assert IDENTIFIER.findall(shown) == []


@pytest.mark.parametrize("command", [
    ["simulate", DUEL, "-n", "50"],
    ["sweep", DUEL, "--vary", "rin.skills.melee=1..2"],
    ["balance", DUEL, "--vary", "rin.skills.melee=1..2", "--target", "blades=0.5"],
], ids=lambda c: c[0])
def test_jobs_and_a_scheduler_together_are_refused(command: list[str]) -> None:
    # the scheduler's address is never dialled: the refusal comes first
    refused(fracas(*command, "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1", timeout=60),
            "--jobs: ", "not both")


@pytest.mark.parametrize("flag,value", [("--max-states", "5"), ("--max-seconds", "1")])
def test_odds_refuses_a_fight_budget_without_fight(flag: str, value: str) -> None:
    vampire = str(EXAMPLES / "tristat" / "vampire.yaml")
    refused(fracas("odds", vampire, flag, value), f"{flag}: ", f"--fight with {flag}")
    done = fracas("odds", DUEL, "--fight", flag, value, "--quiet")  # with --fight: its budget
    assert done.returncode in (0, 2) and "--fight with" not in done.stderr


def test_balance_past_its_budget_names_the_closest_value_it_finished() -> None:
    """Two lone minions (a few seconds, exact), then a group of nine (far longer): the budget
    runs out on the second, and the first, finished, is the closest so far (it was lost,
    as the whole pair was reported at once)."""
    genesys = str(EXAMPLES / "genesys" / "duel-fight.yaml")
    line = refused(fracas("balance", genesys, "--vary", "red.group_size=1..9", "--target",
                          "port=0.5", "--max-seconds", "30", "--jobs", "1", "--quiet"),
                   "--max-seconds: ", "after 1 value tried")
    assert "closest so far: red.group_size=1 gives port 16.42%" in line
