"""Fuzzing fight logs: any damage to a saved log ends in a verified prefix of the fight or
a clean error naming the line, never a traceback and never a different fight."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.cli.fights import replay
from fracas.encounter.engine import Encounter
from fracas.encounter.log import LogWriter
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario
from tests.conftest import TOY

EXAMPLES = int(os.environ.get("FRACAS_FUZZ", "300"))  # cases per fuzz test
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def fight(tmp_path_factory: pytest.TempPathFactory) -> tuple[Encounter, bytes]:
    """The toy three-way duel, played and saved once (a short log: fast to fuzz)."""
    played = Encounter(load_scenario(TOY / "duel-fight.yaml"), seed=3)
    played.run()
    path = tmp_path_factory.mktemp("log") / "original.jsonl"
    played.save(path)
    return played, path.read_bytes()


def check_prefix(loaded: Encounter, whole: Encounter) -> None:
    """A log that loads holds the fight's own first turns, whole."""
    assert loaded.events == whole.events[:len(loaded.events)]
    assert loaded.marks == whole.marks[:len(loaded.marks)]
    assert len(loaded.events) in (*whole.marks, len(whole.events))
    if loaded.stopped is None:
        assert loaded.events == whole.events


@st.composite
def damaged(draw: st.DrawFn, text: bytes) -> bytes:
    lines = text.splitlines(keepends=True)
    n = len(lines)
    kind = draw(st.sampled_from(["delete", "repeat", "swap", "cut", "byte", "insert"]))
    i = draw(st.integers(0, n - 1))
    j = draw(st.integers(0, n - 1))
    if kind == "delete":
        del lines[i]
    elif kind == "repeat":
        lines.insert(j, lines[i])
    elif kind == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "cut":
        return text[:draw(st.integers(0, len(text) - 1))]
    elif kind == "byte":
        line = bytearray(lines[i])
        k = draw(st.integers(0, len(line) - 1))
        line[k] = draw(st.integers(0, 255))
        lines[i] = bytes(line)
    else:
        lines.insert(i, draw(st.sampled_from([b"\n", b"{}\n", b"null\n", b"[]\n", b"\xff\n",
                                              b'{"seq": 1}\n'])))
    return b"".join(lines)


@FUZZ
@given(data=st.data())
def test_a_damaged_log_is_a_prefix_of_the_fight_or_a_clean_error(
        tmp_path: Path, fight: tuple[Encounter, bytes], data: st.DataObject) -> None:
    whole, text = fight
    bad = data.draw(damaged(text))
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(bad)
    try:
        loaded = Encounter.load(path)
    except InputError as err:
        assert "line" in str(err) or "empty" in str(err) or "header" in str(err)
        return
    check_prefix(loaded, whole)  # (white space between JSON tokens is not content)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=5)
                    | st.sampled_from(["ann", "bob", "cid", "hp", "heroes"]),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)


@FUZZ
@given(data=st.data())
def test_a_crafted_log_with_a_valid_chain_replays_or_is_a_clean_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fight: tuple[Encounter, bytes],
        data: st.DataObject) -> None:
    """Even a log whose hashes were recomputed after an edit (so the chain holds) cannot
    make replay crash: each field is checked against the event's type and the fight."""
    records = [json.loads(line) for line in fight[1].splitlines()]
    index = data.draw(st.integers(0, len(records) - 1))
    target: dict[str, Any] = records[index]["data"]
    if "event" in target and data.draw(st.booleans()):
        target = target["event"]
    key = data.draw(st.sampled_from([*sorted(target), "__class__"]))
    if data.draw(st.integers(0, 4)) == 0:
        target.pop(key, None)
    else:
        target[key] = data.draw(JSON)
    path = tmp_path / "crafted.jsonl"
    out = LogWriter.create(path, records[0]["kind"], records[0]["data"])
    for r in records[1:]:
        out.append(r["kind"], r["data"])
    out.detach()
    for as_json in (True, False):  # the replay command itself, called in-process
        try:
            replay(path, undo=0, as_json=as_json)
        except InputError as err:
            assert "line" in str(err)
    capsys.readouterr()
