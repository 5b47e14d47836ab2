"""Generated bad input for the real ``fracas`` command (issue 26): the cases, how one runs
in a fresh process, and how its result is judged.

A case is a command line, the files it reads (written to a fresh folder), the text on its
standard input, and whether the input is certainly wrong (``must_refuse``: a field of the
wrong type, an edited log line, nesting past the bound...). Its outcome is one of

* ``ok``: exit 0, or exit 2 with a one-line error (``fracas: error: ...`` or a usage error);
* ``traceback``: a Python traceback on stderr, or any other exit code;
* ``hang``: still running after :data:`TIMEOUT` seconds;
* ``crash``: ended by a signal (a segmentation fault...);
* ``silent``: exit 0 on input that is certainly wrong;
* ``unclear``: exit 2 without an error message.

``tests/foundation/test_cli_fuzz.py`` runs a bounded sample of them in the test suite; the
same test with ``FRACAS_CLI_FUZZ=N`` runs N cases and prints the counts.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from fracas.encounter.log import CHAIN_START, _digest
from tests.foundation.test_fuzz_inputs import _paths

FRACAS = [sys.executable, "-m", "fracas"]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TIMEOUT = 60.0
SCENARIOS = ["tristat/duel-fight.yaml", "tristat/called_shot.yaml", "genesys/brawl.yaml",
             "c22/duel-fight.yaml", "contest/tony.yaml", "zamani/duel-fight.yaml"]
OUTCOMES = ("ok", "traceback", "hang", "crash", "silent", "unclear")


@dataclass
class Case:
    argv: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: str = ""
    must_refuse: bool = False
    what: str = ""


def run_case(case: Case, folder: Path) -> tuple[str, str]:
    """Run one case in ``folder``: its outcome and what it printed on stderr (the end)."""
    for name, data in case.files.items():
        (folder / name).write_bytes(data)
    try:
        done = subprocess.run([*FRACAS, *case.argv], capture_output=True, timeout=TIMEOUT,
                              input=case.stdin.encode(), cwd=folder)
    except subprocess.TimeoutExpired:
        return "hang", ""
    err = done.stderr.decode("utf-8", "replace")
    if done.returncode < 0 or done.returncode >= 128:
        return "crash", err[-2000:]
    if "Traceback" in err or done.returncode not in (0, 2):
        return "traceback", err[-2000:]
    if done.returncode == 2:
        said = err.strip()
        clear = said.startswith("fracas: error: ") or "Error: " in said
        return ("ok" if clear else "unclear"), err[-2000:]
    return ("silent" if case.must_refuse else "ok"), err[-2000:]


# -- bad values -----------------------------------------------------------------------
def _deep(levels: int, opener: str = "[") -> Any:
    value: Any = "x"
    for _ in range(levels):
        value = [value] if opener == "[" else {"a": value}
    return value


BAD_NUMBERS = st.one_of(
    st.text(max_size=8).filter(lambda t: not t.strip().lstrip("-").isdigit()),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3),
                                                         st.integers(), max_size=2),
    st.integers(max_value=-1), st.just(10**400), st.floats(allow_nan=True).filter(
        lambda f: f != int(f) if f == f and abs(f) != float("inf") else True),
    st.sampled_from([True, False]), st.just(None),
    st.integers(150, 800).map(_deep))
BAD_TEXT = st.one_of(st.lists(st.text(max_size=4), max_size=3), st.just(None),
                     st.dictionaries(st.text(max_size=3), st.text(max_size=3), min_size=1,
                                     max_size=2), st.integers(150, 800).map(
                                         lambda n: _deep(n, "{")))
ANY_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                        | st.text(max_size=10),
                        lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                        max_leaves=8)


def _load(name: str) -> dict[str, Any]:
    return yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8"))


def _dump(data: Any) -> bytes:
    try:
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode()
    except RecursionError:  # PyYAML's own writer recurses: deep values go as JSON (YAML)
        return json.dumps(data).encode()


# -- scenarios ------------------------------------------------------------------------
@st.composite
def scenario_cases(draw: st.DrawFn) -> Case:
    """An example scenario with one field made certainly wrong, through a command."""
    name = draw(st.sampled_from(SCENARIOS))
    data = _load(name)
    first = data["combatants"][0]
    numeric = [k for k, v in first.items() if type(v) is int and k != "group_size"]
    where = draw(st.sampled_from(["system", "combatants", "id", "side", "number",
                                  "max_rounds", "dice"]))
    if where == "system":
        data["system"] = draw(BAD_TEXT | st.sampled_from(["", "nosuch", "TRISTAT"]))
    elif where == "combatants":
        data["combatants"] = draw(BAD_NUMBERS.filter(lambda v: not isinstance(v, list))
                                  | st.just([]))
    elif where == "id":
        first["id"] = draw(BAD_TEXT)
    elif where == "side":
        first["side"] = draw(BAD_TEXT)
    elif where == "number" and numeric:
        first[draw(st.sampled_from(numeric))] = draw(BAD_NUMBERS)
    elif where == "max_rounds":
        data["max_rounds"] = draw(BAD_NUMBERS.filter(lambda v: v is not None))
    else:
        # (not 0: a Genesys pool pinned as 0 is one that showed no symbols, on purpose)
        data["dice"] = draw(st.lists(st.integers(-10**6, -1) | st.integers(101, 10**9)
                                     | st.just(10**400), min_size=1, max_size=6))
    command = draw(st.sampled_from([["attack"], ["attack", "--seed", "1"], ["odds"],
                                    ["fight", "--seed", "2"],
                                    ["simulate", "-n", "20", "-q", "--max-seconds", "20"],
                                    ["advise"], ["play", "--roll-all"]]))
    return Case([command[0], "s.yaml", *command[1:]], {"s.yaml": _dump(data)}, "q\n",
                must_refuse=True, what=f"scenario {name}: {where}")


@st.composite
def raw_yaml_cases(draw: st.DrawFn) -> Case:
    """Scenario text cut, spliced with junk, or nested deeply by hand."""
    text = (EXAMPLES / draw(st.sampled_from(SCENARIOS))).read_text(encoding="utf-8")
    how = draw(st.sampled_from(["cut", "junk", "deep", "escape"]))
    refuse = how in ("deep", "escape")
    if how == "cut":
        text = text[:draw(st.integers(0, len(text)))]
    elif how == "junk":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=20)) + text[at:]
    elif how == "deep":
        n = draw(st.integers(101, 30_000))
        text += "\nextra: " + "[" * n + ("]" * n if draw(st.booleans()) else "") + "\n"
    elif re.search(r"(?m)^title: ", text):
        text = re.sub(r"(?m)^title: .*$", lambda _: 'title: "\\ud800"', text, count=1)
    else:
        text = 'title: "\\ud800"\n' + text
    command = draw(st.sampled_from(["attack", "odds", "fight", "sweep"]))
    extra = ["--vary", "max_rounds=1,2", "-q", "--max-seconds", "15"] if (
        command == "sweep") else []  # a valid cut scenario's sweep: within its own budget
    return Case([command, "s.yaml", *extra], {"s.yaml": text.encode("utf-8", "surrogatepass")},
                must_refuse=refuse, what=f"yaml {how}")


# -- logs ---------------------------------------------------------------------------
def _chain(records: list[dict[str, Any]]) -> bytes:
    previous, out = CHAIN_START, []
    for r in records:
        r["hash"] = previous = _digest(previous, r["seq"], r["kind"], r["data"])
        out.append(json.dumps(r, ensure_ascii=False))
    return ("\n".join(out) + "\n").encode("utf-8", "surrogatepass")


_LOGS: dict[str, list[dict[str, Any]]] = {}


def made_log(kind: str) -> list[dict[str, Any]]:
    """A fight log (``fight``) or a session log (``session``) made once by the command."""
    if kind not in _LOGS:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "log.jsonl"
            duel = EXAMPLES / "tristat" / "duel-fight.yaml"
            if kind == "fight":
                subprocess.run([*FRACAS, "fight", str(duel), "--seed", "4", "--log",
                                str(path), "--json"], check=True, capture_output=True)
            else:
                subprocess.run([*FRACAS, "play", str(duel), "--seed", "4", "--log", str(path)],
                               input=b"r\nr\n1\nr\nq\n", check=True, capture_output=True)
            _LOGS[kind] = [json.loads(line) for line in path.read_text().splitlines()]
    return copy.deepcopy(_LOGS[kind])


@st.composite
def log_cases(draw: st.DrawFn) -> Case:
    """A fight or session log with one line edited and its hash chain recomputed, or the
    line damaged as bytes; through ``replay`` or ``play --resume``."""
    kind = draw(st.sampled_from(["fight", "session"]))
    records = made_log(kind)
    how = draw(st.sampled_from(["value", "value", "bytes", "twice", "deep", "escape"]))
    index = draw(st.integers(0, len(records) - 1))
    refuse = True
    if how == "value":
        record = records[index]
        paths = [p for p in _paths(record["data"]) if "text" not in p]
        path = draw(st.sampled_from(paths))
        target = record["data"]
        for key in path[:-1]:
            target = target[key]
        old = target[path[-1]]
        new = draw(ANY_JSON.filter(lambda v, o=old: json.dumps(v) != json.dumps(o)))
        target[path[-1]] = new
        # the fight log's events must be the rules': any change is refused; a session's
        # inputs may be changed into other valid ones, so only a change of type must be
        # (a fight log's header is its inputs: a new title, say, is a new fight; the
        # scenario in a header is read as a scenario file is: 5.0 is 5)
        refuse = (kind == "fight" and index > 0) or (type(new) is not type(old) and not (
            old is None or new is None or isinstance(old, dict | list))
            and path[0] != "scenario")
        body = _chain(records)
        what = f"{kind} log line {index + 1}: {'.'.join(map(str, path))}"
    else:
        body = _chain(records)
        lines = body.split(b"\n")
        line = lines[index]
        if how == "bytes":
            at = draw(st.integers(0, len(line)))
            line = line[:at] + draw(st.binary(min_size=1, max_size=8)) + line[at:]
        elif how == "twice":
            line = line.replace(b'"seq": ', b'"seq": 0, "seq": ', 1)
        elif how == "deep":
            line = b"[" * draw(st.integers(101, 200_000)) + line
        else:
            line = line.replace(b'"kind": "', b'"kind": "\\ud800', 1)
        lines[index] = line
        body = b"\n".join(lines)
        what = f"{kind} log line {index + 1}: {how}"
    if draw(st.booleans()):
        argv = ["replay", "log.jsonl"]
    else:
        argv = ["play", "--resume", "log.jsonl", "--script", "/dev/null"]
    return Case(argv, {"log.jsonl": body}, must_refuse=refuse, what=what)


# -- options and expressions ----------------------------------------------------------
WORDS = st.one_of(st.text(max_size=12), st.integers().map(str), st.just("1e300"),
                  st.just("nan"), st.just("-inf"), st.just("9" * 5000), st.just("--5"))


@st.composite
def option_cases(draw: st.DrawFn) -> Case:
    """An example through a command with one option given a generated value."""
    duel = str(EXAMPLES / "tristat" / "duel-fight.yaml")
    command, options = draw(st.sampled_from([
        (["fight", duel], ["--seed", "--max-rounds", "--policy", "--log"]),
        (["simulate", duel, "-q"], ["--seed", "-n", "--max-memory", "--max-seconds",
                                    "--method", "--jobs", "--policy"]),
        (["attack", str(EXAMPLES / "tristat" / "called_shot.yaml")], ["--seed", "--dice"]),
        (["odds", duel, "--fight", "-q"], ["--max-states", "--max-seconds"]),
        (["play", duel], ["--seed", "--control", "--resume"]),
        (["roll"], [""]),
    ]))
    option, value = draw(st.sampled_from(options)), draw(WORDS)
    short = value.removeprefix("-").isdigit() and len(value) < 30
    if option == "-n" and short and 0 < int(value) <= 10**7:
        value = str(min(int(value), 50))  # a bounded number of fights
    if option in ("--max-seconds", "--max-states") and short:
        value = str(min(int(value), 20 if option == "--max-seconds" else 2000))
    argv = [*command, value] if option == "" else [*command, option, value]
    if command[0] == "roll" and value.startswith("-"):
        argv = ["roll", "--", value]
    stdin = "q\n" if command[0] == "play" else ""
    return Case(argv, stdin=stdin, what=f"{command[0]} {option}")


@st.composite
def play_cases(draw: st.DrawFn) -> Case:
    """A live session fed generated command lines."""
    name = draw(st.sampled_from(["tristat/duel-fight.yaml", "genesys/duel-fight.yaml",
                                 "c22/duel-fight.yaml"]))
    line = st.one_of(st.text(max_size=15), st.sampled_from(
        ["u 2", "u 99999999999999999999", "redo 5", "gm add []", "gm add {}",
         "gm add [[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]", "gm set rin health x",
         "gm set red initiative x", "gm set x y z", "9,9", "r", "1", "gm end", "e", "s"]),
        st.builds(lambda n: "gm add " + "[" * n, st.integers(100, 100_000)))
    lines = draw(st.lists(line, min_size=1, max_size=6))
    text = "\n".join(v.replace("\n", " ").replace("\r", " ") for v in lines) + "\nq\n"
    return Case(["play", str(EXAMPLES / name), "--seed", "1"], stdin=text,
                what=f"play {name}")


CASES = st.one_of(scenario_cases(), raw_yaml_cases(), log_cases(), option_cases(),
                  play_cases())
