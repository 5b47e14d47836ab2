"""Issue 26, many tables: the screens' odds are worked out in a worker process of lower
priority, so that the server's requests never share the interpreter lock with odds code
and its heap (walked by the cycle collector) does not hold the odds' caches; start-up
objects are frozen out of the collector's way."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

from fracas.encounter.decisions import Decision, LaterOdds, action_odds
from fracas.encounter.session import Session
from fracas.odds import cache
from fracas.registry.scenarios import load_scenario
from fracas.web.odds import NICE, OddsWorker, work_out
from fracas.web.testing import ServerProcess

ROOT = Path(__file__).resolve().parents[2]


def first_action(example: str) -> Decision:
    """The first action decision of an example fight (the first option taken before it)."""
    scenario = load_scenario(ROOT / "examples" / example)
    people = dict.fromkeys(scenario.roster, "person")
    session = Session.start(scenario, seed=3, controllers=people, roll_all=True)
    while session.pending is not None and session.pending.kind != "action":
        session.play_first(1)  # a slot taken, a die rolled
    assert session.pending is not None
    return session.pending


def wait_ready(decision: Decision, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not decision.odds_ready and time.monotonic() < deadline:
        time.sleep(0.02)
    assert decision.odds_ready, "the odds never came"


def test_the_worker_gives_the_same_odds_as_working_them_out_here() -> None:
    decision = first_action("tristat/duel-fight.yaml")
    later = [o.given for o in decision.options if isinstance(o.given, LaterOdds)]
    assert later, "an action's options carry their odds as plain data"
    here = [action_odds(x.system, x.action, x.roster) for x in later]
    worker = OddsWorker()
    try:
        before = len(cache._ODDS_CACHE)
        worker.warm("e1", decision)
        wait_ready(decision)
        assert [o.odds for o in decision.options if o.odds is not None] == \
            [x for x in here if x is not None]
        # worked out in the other process: this one's odds cache did not grow
        assert len(cache._ODDS_CACHE) == before
    finally:
        worker.close()


def test_a_newer_decision_of_the_same_encounter_is_worked_out() -> None:
    older = first_action("contest/duel-fight.yaml")
    newer = first_action("tristat/duel-fight.yaml")
    worker = OddsWorker()
    try:
        worker.warm("e1", older)
        worker.warm("e1", older)  # asked again (a second screen): sent once
        worker.warm("e1", newer)
        wait_ready(newer)
        assert any(o.odds is not None for o in newer.options)
    finally:
        worker.close()


def test_a_worker_that_dies_is_replaced() -> None:
    worker = OddsWorker()
    try:
        first = first_action("tristat/duel-fight.yaml")
        worker.warm("e1", first)
        wait_ready(first)
        pool = worker._executor()
        for process in list(pool._processes.values()):  # type: ignore[union-attr]
            process.kill()
            process.join(10)
        second = first_action("genesys/duel-fight.yaml")
        deadline = time.monotonic() + 60
        while not second.odds_ready and time.monotonic() < deadline:
            worker.warm("e2", second)  # the first try may meet the dead pool
            time.sleep(0.1)
        wait_ready(second)
    finally:
        worker.close()


def test_the_worker_runs_at_a_lower_priority() -> None:
    pool = OddsWorker()
    try:
        niceness = pool._executor().submit(os.nice, 0).result(timeout=60)
        assert niceness >= min(19, os.nice(0) + NICE)
    finally:
        pool.close()


def test_odds_that_fail_in_the_worker_leave_the_option_without_them() -> None:
    decision = first_action("tristat/duel-fight.yaml")
    later = next(o.given for o in decision.options if isinstance(o.given, LaterOdds))
    broken = LaterOdds(later.system, later.action,
                       {later.action.target: None})  # type: ignore[arg-type,dict-item]
    assert later() is not None
    assert work_out([broken, later]) == [None, later()]


def test_where_no_worker_can_start_the_server_works_the_odds_out_itself() -> None:
    class NoProcesses(OddsWorker):
        def _executor(self):  # type: ignore[no-untyped-def]
            raise RuntimeError("no new processes here")

    worker = NoProcesses()
    decision = first_action("tristat/duel-fight.yaml")
    worker.warm("e1", decision)
    wait_ready(decision)
    assert any(o.odds is not None for o in decision.options)


def odds_workers(server_pid: int) -> list[int]:
    """The server's odds worker processes (Linux's /proc: children running spawn_main)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == server_pid and "spawn_main" in command:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_worker_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 't.sqlite3'}").start()
    try:
        assert server.proc is not None
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while not workers and time.monotonic() < deadline:  # started with the server
            workers = odds_workers(server.proc.pid)
            time.sleep(0.1)
        assert workers, "no odds worker started"
        os.kill(server.proc.pid, signal.SIGKILL)  # the server alone, as a crash would
        server.proc.wait(10)
        deadline = time.monotonic() + 30
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(w) for w in workers), "the odds worker outlived its server"
    finally:
        with contextlib.suppress(ProcessLookupError):
            server.kill()
