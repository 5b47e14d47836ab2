"""Fight logs and record logs: appended as the fight goes, every line verified on load;
damage (truncated, reordered, repeated, edited, malformed lines) is named by its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fracas.encounter.engine import Encounter
from fracas.encounter.log import LogWriter, read_log
from fracas.encounter.state import fold
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario
from tests.foundation.test_cli import run_main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ALLEY = EXAMPLES / "tristat" / "alley-fight.yaml"


def played(seed: int = 3) -> Encounter:
    fight = Encounter(load_scenario(ALLEY), seed=seed)
    fight.run()
    return fight


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Encounter, Path]:
    fight = played()
    path = tmp_path / "fight.jsonl"
    fight.save(path)
    return fight, path


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def error_of(path: Path) -> InputError:
    with pytest.raises(InputError) as info:
        Encounter.load(path)
    return info.value


def test_a_log_cut_after_any_line_loads_its_whole_turns_and_says_where_it_stops(
        saved: tuple[Encounter, Path], tmp_path: Path) -> None:
    fight, path = saved
    lines = lines_of(path)
    assert Encounter.load(path).stopped is None
    for keep in range(1, len(lines)):
        cut = tmp_path / "cut.jsonl"
        cut.write_text("".join(lines[:keep]), encoding="utf-8")
        loaded = Encounter.load(cut)
        assert loaded.stopped is not None and f"after line {keep}" in loaded.stopped
        turns = sum(json.loads(line)["kind"] == "turn" for line in lines[:keep])
        assert loaded.marks == fight.marks[:turns]
        assert loaded.events == fight.events[:len(loaded.events)]
        assert loaded.state == fold(fight.initial, loaded.events)
        assert turns == len(fight.marks) or len(loaded.events) == fight.marks[turns]


def test_a_line_cut_in_the_middle_is_a_stop_not_an_error(saved: tuple[Encounter, Path],
                                                          tmp_path: Path) -> None:
    fight, path = saved
    text = path.read_text(encoding="utf-8")
    half = tmp_path / "half.jsonl"
    half.write_text(text[: len(text) // 2], encoding="utf-8")
    loaded = Encounter.load(half)
    assert loaded.stopped is not None and "is cut short" in loaded.stopped
    assert 0 < len(loaded.events) < len(fight.events)
    assert loaded.events == fight.events[:len(loaded.events)]


@pytest.mark.parametrize("damage, message", [
    (lambda ls: ls[:5] + ls[6:], "line 6: sequence number 7 where 6 was expected"),
    (lambda ls: [*ls[:5], ls[6], ls[5], *ls[7:]], "line 6: sequence number 7 where 6"),
    (lambda ls: [*ls[:6], ls[5], *ls[6:]], "line 7: sequence number 6 again"),
    (lambda ls: [*ls[:4], ls[4].replace('"turn": 1', '"turn": 2', 1), *ls[5:]],
     "line 5: the hash does not match"),
    (lambda ls: [*ls, ls[-1]], "a line after the log's close record"),
], ids=["removed", "swapped", "repeated", "edited", "after close"])
def test_damage_is_an_error_naming_the_line(saved: tuple[Encounter, Path], tmp_path: Path,
                                            damage: object, message: str) -> None:
    _, path = saved
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(damage(lines_of(path))), encoding="utf-8")  # type: ignore[operator]
    assert message in str(error_of(bad))


def rewrite(path: Path, line: int, change: object) -> None:
    """Change one record's data and re-chain every hash after it (a crafted log)."""
    records = [json.loads(text) for text in lines_of(path)]
    change(records[line - 1]["data"])  # type: ignore[operator]
    out = LogWriter.create(path, records[0]["kind"], records[0]["data"])
    for r in records[1:]:
        out.append(r["kind"], r["data"])
    out.detach()


@pytest.mark.parametrize("line, change, message", [
    (3, lambda d: d["event"].update(__class__="x"), "unknown field '__class__'"),
    (3, lambda d: d["event"].update(type="Nope"), "unknown event type 'Nope'"),
    (3, lambda d: d["event"].pop("rule"), "lacks the field 'rule'"),
    (3, lambda d: d.update(event=[1, 2]), "an event must be an object"),
    (1, lambda d: d.update(seed="x"), "seed: the seed must be a whole number"),
    (1, lambda d: d.update(max_rounds=10**9), "max_rounds: a bad round limit"),
    (1, lambda d: d.update(policies={"nobody": "aggressive"}), "policies: bad policies"),
    (1, lambda d: d.update(scenario=[]), "a scenario must be a mapping"),
    (1, lambda d: d.update(version=1), "fight log version 1"),
], ids=["__class__", "type", "missing", "not an object", "seed", "rounds", "policies",
        "scenario", "version"])
def test_a_malformed_record_is_a_clean_error_naming_its_line(
        saved: tuple[Encounter, Path], line: int, change: object, message: str) -> None:
    _, path = saved
    rewrite(path, line, change)
    err = error_of(path)
    assert message in str(err) and f"line {line}" in str(err)


def first_event_line(path: Path, event_type: str) -> int:
    for number, text in enumerate(lines_of(path), start=1):
        record = json.loads(text)
        if record["kind"] == "event" and record["data"]["event"]["type"] == event_type:
            return number
    raise AssertionError(event_type)


@pytest.mark.parametrize("event_type, change, message", [
    ("Changed", lambda e: e.update(before=12345), "here, not 12345"),
    ("Changed", lambda e: e.update(after="lots"), "'lots' does not fit initiative (int | None)"),
    ("Changed", lambda e: e.update(target="ghost"), "no combatant 'ghost'"),
    ("Changed", lambda e: e.update(field="__class__"), "has no field '__class__'"),
    ("RoundStarted", lambda e: e.update(round="one"), "RoundStarted.round has the wrong type"),
    ("RoundStarted", lambda e: e.update(round=7), "round 7 after round 0"),
    ("RoundStarted", lambda e: e.update(slots=[[["ghost"], "x", True, []]]), "is not"),
    ("TurnStarted", lambda e: e.update(slot_index=40), "slot 40 where slot 0 comes next"),
], ids=["before", "after type", "target", "field", "round type", "round", "slots", "slot"])
def test_an_event_that_does_not_fit_the_fight_is_named(
        saved: tuple[Encounter, Path], event_type: str, change: object, message: str) -> None:
    _, path = saved
    line = first_event_line(path, event_type)
    rewrite(path, line, lambda d: change(d["event"]))  # type: ignore[operator]
    err = error_of(path)
    assert message in str(err) and f"line {line}" in str(err)


@pytest.mark.parametrize("content, message", [
    (b"", "an empty log"),
    (b"[1, 2]\n", "line 1: a JSON list, not a record object"),
    (b"\xff\xfe\n", "line 1: not UTF-8 text"),
    (b"{}\n", "line 1: not a record (missing data, hash, kind, seq)"),
    (b'{"seq": "1", "kind": "FightLog", "data": {}, "hash": ""}\n', "seq (a whole number)"),
    (b"1" * 5000 + b"\n", "line 1: not JSON"),
], ids=["empty", "list", "bytes", "empty object", "seq type", "huge integer"])
def test_files_that_are_not_logs_are_clean_errors(tmp_path: Path, content: bytes,
                                                  message: str) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    assert message in str(error_of(path))


def test_a_folder_or_a_missing_file_is_a_clean_error(tmp_path: Path) -> None:
    assert "is a folder" in str(error_of(tmp_path))
    assert "no such file" in str(error_of(tmp_path / "none.jsonl"))


def test_records_of_any_kind_are_chained_resumed_and_closed(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    log = LogWriter.create(path, "Session", {"scenario": "alley"})
    log.append("dice", {"values": [3, 5]})
    log.detach()
    read = read_log(path, "Session")
    assert not read.closed and read.stopped == ("the log stops after line 2 without being "
                                                "closed")
    log, so_far = LogWriter.resume(path, "Session")
    assert [r.kind for r in so_far.records] == ["Session", "dice"]
    log.append("edit", {"target": "bob", "health": 9})
    log.close({"records": 3})
    read = read_log(path, "Session")
    assert read.closed and read.stopped is None
    assert [(r.seq, r.kind, r.data) for r in read.records[1:]] == [
        (2, "dice", {"values": [3, 5]}), (3, "edit", {"target": "bob", "health": 9}),
        (4, "close", {"records": 3})]
    with pytest.raises(InputError, match="the log is closed"):
        LogWriter.resume(path, "Session")
    with pytest.raises(InputError, match="not a 'Other' log"):
        read_log(path, "Other")


# -- the CLI ------------------------------------------------------------------------------
def test_fight_log_is_appended_turn_by_turn_and_keeps_them_when_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "fight.jsonl"
    real_step = Encounter.step
    calls = []

    def stop_at_the_fourth(self: Encounter) -> object:
        calls.append(1)
        if len(calls) == 4:
            assert len(read_log(log, "FightLog").records) > 1  # already on disk
            raise KeyboardInterrupt
        return real_step(self)

    monkeypatch.setattr(Encounter, "step", stop_at_the_fourth)
    code, _, err = run_main(monkeypatch, capsys, "fight", str(ALLEY), "--seed", "3",
                            "--log", str(log))
    assert code == 130 and "interrupted" in err
    monkeypatch.undo()
    loaded = Encounter.load(log)
    assert len(loaded.marks) == 3 and loaded.stopped is not None
    assert loaded.events == played().events[:len(loaded.events)]
    code, out, err = run_main(monkeypatch, capsys, "replay", str(log), "--json")
    assert code == 0 and "warning" in err and "replaying its 3 whole turns" in err
    assert json.loads(out)["log"] == {"kind": "fight", "complete": False,
                                      "stopped": loaded.stopped, "turns": 3}


def test_fight_log_to_an_unwritable_path_fails_before_the_fight(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for target, message in ((tmp_path, "is a folder"),
                            (tmp_path / "no" / "f.jsonl", "its folder does not exist")):
        code, out, err = run_main(monkeypatch, capsys, "fight", str(ALLEY), "--log",
                                  str(target))
        assert code == 2 and message in err and out == "" and "Traceback" not in err


def test_replay_names_the_damaged_line_and_bounds_undo(
        saved: tuple[Encounter, Path], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    fight, path = saved
    code, out, err = run_main(monkeypatch, capsys, "replay", str(path), "--undo", "100000")
    turns = len(fight.marks)
    assert code == 2 and f"cannot undo 100,000 turns: the log holds {turns}" in err
    code, out, _ = run_main(monkeypatch, capsys, "replay", str(path), "--undo", str(turns),
                            "--json")
    assert code == 0 and json.loads(out)["events"] == [] and json.loads(out)["log"][
        "complete"]
    lines = lines_of(path)
    path.write_text("".join(lines[:3] + lines[4:]), encoding="utf-8")
    code, out, err = run_main(monkeypatch, capsys, "replay", str(path), "--json")
    assert code == 2 and out == ""
    assert err.strip() == (f"fracas: error: {path}: line 4: sequence number 5 where 4 was "
                           "expected: lines are missing or out of order (allowed: a fight log "
                           "(fracas fight --log) as fracas wrote it)")
