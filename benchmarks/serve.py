"""Load on the web tracker: 1, 8 and 50 tables at once, each a GM and a player playing fight
after fight over HTTP as the page does (each screen follows the live stream and fetches its
view when the stream names a version newer than the one it shows, then answers if the
decision is its own), on loopback only and for a bounded time. Measures a decision's round
trip (the POST) and prints p50/p99 side by side for SQLite (one process) and a throwaway
PostgreSQL with 1 and 2 processes (``fracas serve --workers 2``); with ``--think``, also how
long a screen waits for the odds of its decision (asked again as the page does).

Both databases are durable alike: SQLite with ``synchronous=FULL`` (as the tracker runs it)
and PostgreSQL with ``fsync=on``, each commit on disk before the answer.

Run: .venv/bin/python benchmarks/serve.py [--tables 1 8 50] [--seconds 5] [--no-postgres]
     [--quick]   (--quick: one table for one second on each server)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from fracas.web.testing import ServerProcess, postgres_bin, throwaway_postgres

EXAMPLES = ["tristat/duel-fight.yaml", "genesys/duel-fight.yaml", "zamani/duel-fight.yaml",
            "contest/duel-fight.yaml"]
PEOPLE = {"tristat/duel-fight.yaml": "rin", "genesys/duel-fight.yaml": "red",
          "zamani/duel-fight.yaml": "kofi", "contest/duel-fight.yaml": "rosa"}


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    conflicts: int = 0
    errors: int = 0
    fights: int = 0
    odds: list[float] = field(default_factory=list)  # seconds until a screen's odds came
    odds_late: int = 0  # answers given before their odds came


def answer_for(decision: dict[str, Any]) -> dict[str, Any]:
    options = decision.get("options")
    if isinstance(options, list) and options:
        return {"option": options[0]["id"]}
    return {"roll": True}


THINK = [0.0]  # seconds a seat takes to decide (--think), not counted in the round trip
PACE = random.Random(1)  # how long each answer takes around --think (the same every run)


ODDS_POLL = 0.3  # while a screen's odds are pending it asks again after this, as the page


async def think(http: httpx.AsyncClient, auth: dict[str, str], eid: str,
                view: dict[str, Any], tally: Tally) -> dict[str, Any]:
    """The time a person takes to decide; meanwhile, as the page does, the screen asks for
    its view again every :data:`ODDS_POLL` seconds while the odds are pending, and notes
    when they arrive (or that they had not by the time the person answered)."""
    ends = time.monotonic() + THINK[0] * PACE.uniform(0.5, 1.5)
    began = time.monotonic()
    waiting = view["pending"].get("odds_pending")
    while time.monotonic() < ends:
        await asyncio.sleep(min(ODDS_POLL, max(0.0, ends - time.monotonic())))
        if waiting and time.monotonic() < ends:
            fresh = (await http.get(f"/api/encounters/{eid}", headers=auth)).json()
            if fresh["version"] != view["version"]:
                return view  # moved on meanwhile: the answer will say so (409)
            view = fresh
            if not view["pending"].get("odds_pending"):
                tally.odds.append(time.monotonic() - began)
                waiting = False
    if waiting:
        tally.odds_late += 1
    return view


async def seat(http: httpx.AsyncClient, key: str, eid: str, person: str, is_gm: bool,
               stop: float, tally: Tally) -> None:
    """One screen: follow the stream; on each new version fetch the view and answer while
    the pending decision is this seat's (the GM's: every one but the player's)."""
    auth = {"Authorization": f"Bearer {key}"}
    known = -1  # the version this screen shows
    async with http.stream("GET", f"/api/encounters/{eid}/stream", headers=auth) as events:
        async for line in events.aiter_lines():
            if not line.startswith("data:"):
                continue
            if json.loads(line[5:]).get("version", known + 1) <= known:
                continue  # as the page: a version it already shows (its own answer's)
            view = (await http.get(f"/api/encounters/{eid}", headers=auth)).json()
            known = view["version"]
            while time.monotonic() < stop:
                if view["over"]:
                    return
                pending = view["pending"]
                if (pending["who"] == person) == is_gm or not pending["mine"]:
                    break
                if THINK[0]:  # people differ: between half and one and a half times --think
                    view = await think(http, auth, eid, view, tally)
                    pending = view["pending"]
                began = time.perf_counter()
                r = await http.post(f"/api/encounters/{eid}/decisions", headers=auth,
                                    json={"version": view["version"],
                                          "answer": answer_for(pending["decision"])})
                took = time.perf_counter() - began
                if r.status_code == 200:
                    tally.latencies.append(took)
                    view = r.json()
                    known = view["version"]
                elif r.status_code == 409:
                    tally.conflicts += 1
                    view = (await http.get(f"/api/encounters/{eid}", headers=auth)).json()
                    known = view["version"]
                else:
                    tally.errors += 1
                    return
            if time.monotonic() >= stop:
                return


async def new_fight(http: httpx.AsyncClient, gm_key: str, index: int, fights: int
                    ) -> tuple[str, str]:
    """A new encounter at table ``index`` and its player's key."""
    example = EXAMPLES[index % len(EXAMPLES)]
    person = PEOPLE[example]
    auth = {"Authorization": f"Bearer {gm_key}"}
    r = await http.post("/api/encounters", headers=auth,
                        json={"example": example, "seed": index + 1000 * fights,
                              "controllers": {person: "person"}})
    eid = r.json()["id"]
    r = await http.post(f"/api/encounters/{eid}/players", headers=auth,
                        json={"name": "p", "combatants": [person]})
    return eid, r.json()["key"]


async def table(http: httpx.AsyncClient, gm_key: str, index: int, first: tuple[str, str],
                stop: float, tally: Tally) -> None:
    """One table: a GM and a player play fight after fight until the time is up."""
    person = PEOPLE[EXAMPLES[index % len(EXAMPLES)]]
    eid, player_key = first
    while time.monotonic() < stop:
        seats = [seat(http, gm_key, eid, person, True, stop, tally),
                 seat(http, player_key, eid, person, False, stop, tally)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*seats), max(0.1, stop - time.monotonic()))
        tally.fights += 1
        if time.monotonic() < stop:
            eid, player_key = await new_fight(http, gm_key, index, tally.fights)


async def load(url: str, tables: int, seconds: float) -> tuple[Tally, float]:
    """Set every table up first (not timed), then play for ``seconds``. Each table has a
    client of its own (one pool of many connections costs the client more than the
    server: it scans the whole pool for each request)."""
    clients = [httpx.AsyncClient(base_url=url, timeout=120,
                                 limits=httpx.Limits(max_connections=8))
               for _ in range(tables)]
    try:
        gm_key = (await clients[0].post("/api/gms")).json()["key"]
        ready = [await new_fight(clients[i], gm_key, i, 0) for i in range(tables)]
        tally = Tally()
        stop = time.monotonic() + seconds
        began = time.perf_counter()
        await asyncio.gather(*(table(clients[i], gm_key, i, ready[i], stop, tally)
                               for i in range(tables)))
        return tally, time.perf_counter() - began
    finally:
        for client in clients:
            await client.aclose()


@dataclass
class Result:
    rate: float
    p50: float
    p99: float
    conflicts: int
    errors: int
    odds: list[float]  # seconds until each screen's pending odds came
    odds_late: int  # answers given before their odds came

    def cell(self) -> str:
        return f"{self.p50:6.1f} / {self.p99:6.1f} ms  {self.rate:5.0f}/s"

    def odds_cell(self) -> str:
        if not self.odds and not self.odds_late:
            return "no odds awaited"
        came = sorted(self.odds)
        p99 = f"{came[min(len(came) - 1, int(0.99 * len(came)))]:.1f} s" if came else "-"
        return f"p99 {p99}, {self.odds_late} of {len(came) + self.odds_late} late"


def run(db: str, tables: int, seconds: float, workers: int) -> Result | None:
    server = ServerProcess(db, workers=workers).start()
    try:
        tally, elapsed = asyncio.run(load(server.url, tables, seconds))
    finally:
        server.stop()
    lat = sorted(tally.latencies)
    if not lat:
        return None
    return Result(len(lat) / elapsed, statistics.median(lat) * 1000,
                  lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000,
                  tally.conflicts, tally.errors, tally.odds, tally.odds_late)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 8, 50])
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="how long each configuration runs (default 5)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds each seat takes before answering, on average: each "
                             "answer takes between half and one and a half times this, as "
                             "tables do not answer in step (default 0: as fast as the server "
                             "allows; people take seconds)")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--one-process", action="store_true",
                        help="only one server process (e.g. for a version without --workers)")
    parser.add_argument("--quick", action="store_true",
                        help="one table for one second on each server: shows that it runs")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.seconds = [1], 1.0
    THINK[0] = args.think
    postgres = not args.no_postgres and postgres_bin() is not None
    columns = ["SQLite, 1 process"]
    print(f"{len(args.tables)} loads x up to 3 servers, {args.seconds:g} s each (set-up not "
          "counted)...", flush=True)
    if postgres:
        columns += ["PostgreSQL, 1 process"]
        if not args.one_process:
            columns += ["PostgreSQL, 2 processes"]
    results: dict[tuple[int, str], Result | None] = {}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        pg = stack.enter_context(throwaway_postgres(durable=True)) if postgres else ""
        for n in args.tables:
            sqlite = f"sqlite:///{Path(tmp) / f'bench{n}.sqlite3'}"
            results[(n, columns[0])] = run(sqlite, n, args.seconds, 1)
            if postgres:
                results[(n, columns[1])] = run(pg, n, args.seconds, 1)
            if len(columns) > 2:
                results[(n, columns[2])] = run(pg, n, args.seconds, 2)
    print(f"a decision's round trip, p50 / p99, and decisions per second "
          f"({args.seconds:g} s each, GM + player per table, {args.think:g} s to think, "
          "loopback; both databases durable: every commit on disk before the answer)")
    print(f"{'tables':>6}  " + "  ".join(f"{c:<31}" for c in columns))
    for n in args.tables:
        cells = [results[(n, c)] for c in columns]
        print(f"{n:>6}  " + "  ".join(f"{r.cell() if r else 'no decision made':<31}"
                                      for r in cells))
    if args.think:
        print(f"odds of a decision, from the screen that shows it pending to the screen that "
              f"shows them (asked every {ODDS_POLL:g} s as the page does; late: answered "
              "first)")
        for n in args.tables:
            cells = [results[(n, c)] for c in columns]
            print(f"{n:>6}  " + "  ".join(f"{r.odds_cell() if r else '':<31}" for r in cells))
    trouble = [(n, c, r) for (n, c), r in results.items() if r and (r.errors or r.conflicts)]
    for n, c, r in trouble:
        print(f"  {n} tables, {c}: {r.conflicts} conflicts, {r.errors} errors")
    if not postgres:
        print("PostgreSQL: not installed or --no-postgres, skipped")


if __name__ == "__main__":
    main()
