"""The board a simulation's processes share what they work out on (issue 39): claims that
exactly one process has, logs read whole records at a time from where a process stood,
and answers shared so that none is worked out twice."""

from __future__ import annotations

import os
import struct
from pathlib import Path

from fracas.analysis.board import Board
from fracas.analysis.spread import Live
from fracas.analysis.workers import worker_pool
from fracas.odds.cache import answer_id, cached_odds, forget_odds, worked_out
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_a_claim_is_had_by_one_process_only() -> None:
    board = Board()
    try:
        assert board.claim("a") is True
        assert board.claim("a") is False  # had already
        pool = worker_pool(1, fork=True)
        try:
            assert pool.submit(board.claim, "a").result(timeout=60) is False
            assert pool.submit(board.claim, "b").result(timeout=60) is True
        finally:
            pool.shutdown()
        assert board.claim("b") is False
        assert not board.finished("a")
        board.finish("a")
        assert board.finished("a")
    finally:
        board.close()
    assert not os.path.exists(board.root)
    assert board.finished("b"), "once the run has ended, no claim is waited for"


_BOARD: list[Board] = []  # in a worker: the board it started with


def _keep(board: Board) -> None:
    _BOARD[:] = [board]


def _read() -> list[bytes]:
    return _BOARD[0].read()


def _post_and_read(blob: bytes) -> list[bytes]:
    _BOARD[0].post(blob)
    return _BOARD[0].read()


def test_a_worker_reads_what_was_posted_after_it_started_and_only_that() -> None:
    """A worker knows what its main process knew as it started: it reads the main
    process's log from there on; each side reads the other's posts once."""
    board = Board()
    try:
        board.post(b"known before")
        pool = worker_pool(1, _keep, (board,), fork=True)
        try:
            assert pool.submit(_read).result(timeout=60) == []  # forks
            board.post(b"news")
            assert pool.submit(_post_and_read, b"from the worker").result(
                timeout=60) == [b"news"]
            assert pool.submit(_read).result(timeout=60) == []
        finally:
            pool.shutdown()
        assert board.read() == [b"from the worker"]
        assert board.read() == []
    finally:
        board.close()


def test_a_record_being_written_is_read_once_it_is_whole() -> None:
    board = Board()
    try:
        log = Path(board.root) / "logs" / "12345"
        record = struct.pack("<Q", 5) + b"hello"
        log.write_bytes(record[:10])  # its length and two bytes of five
        assert board.read() == []
        with log.open("ab") as out:
            out.write(record[10:] + struct.pack("<Q", 2))
        assert board.read() == [b"hello"]
        with log.open("ab") as out:
            out.write(b"ok")
        assert board.read() == [b"ok"]
    finally:
        board.close()


def _rank(board: Board, name: str) -> int:
    """In a worker: a ranking's missing answers, shared on ``board``; how many it worked
    out itself."""
    scenario = load_scenario(ROOT / "examples" / name)
    system, roster = scenario.system, scenario.roster
    actions = [a for c in roster for a in system.actions(c, roster)]
    before = worked_out()
    Live(board, system)(system, actions, roster)
    return worked_out() - before


def test_two_processes_at_one_ranking_work_out_each_answer_once() -> None:
    """Two processes that reach the same ranking together share its answers out: each
    answer is claimed, and worked out, by one of them, and both end knowing all."""
    name = "c22/boarding-fight.yaml"
    scenario = load_scenario(ROOT / "examples" / name)
    system, roster = scenario.system, scenario.roster
    actions = [a for c in roster for a in system.actions(c, roster)]
    forget_odds()
    board = Board()
    pool = worker_pool(1, fork=True)
    try:
        other = pool.submit(_rank, board, name)
        here = _rank(board, name)
        there = other.result(timeout=300)
    finally:
        pool.shutdown()
        board.close()
    assert here + there == len(set(actions))
    for action in actions:
        forget_odds()
        assert cached_odds(system, action, roster) is not None


def test_an_answer_claimed_but_never_posted_is_worked_out_here() -> None:
    """A claim whose owner posted no answer that fits (another read set), or that is
    gone, is not waited for: the process works the answer out itself."""
    scenario = load_scenario(ROOT / "examples" / "c22" / "duel-fight.yaml")
    system, roster = scenario.system, scenario.roster
    action = next(a for c in roster for a in system.actions(c, roster))
    forget_odds()
    board = Board()
    try:
        claim = answer_id(system, action, roster)
        assert board.claim(claim)  # somebody's claim...
        board.finish(claim)  # ...done, and nothing posted
        Live(board, system)(system, [action], roster)
        found = cached_odds(system, action, roster)
    finally:
        board.close()
    forget_odds()
    assert cached_odds(system, action, roster) == found


def test_a_board_that_can_no_longer_be_written_only_stops_sharing() -> None:
    """Once the board is gone (the run has ended) or full, a process goes on alone: its
    posts are dropped, and it has every claim (it works every answer out itself)."""
    board = Board()
    board.post(b"first")
    board.close()
    board.post(b"second")  # no error: nobody reads it
    assert board.posted == len(b"first") + 8
    assert board.read() == []
    assert board.claim("a") and board.claim("a")
    board.finish("a")
