"""Load on the web tracker: many encounters at once, each with a GM and a player answering
their own decisions over HTTP, on loopback only and for a bounded time. Prints decisions per
second and the p50/p99 latency of a decision, on SQLite and (when PostgreSQL is installed)
on a throwaway PostgreSQL server.

Run: .venv/bin/python benchmarks/serve.py [--encounters 8] [--seconds 10] [--no-postgres]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

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
    lock: threading.Lock = field(default_factory=threading.Lock)


def answer_for(decision: dict[str, object]) -> dict[str, object]:
    options = decision.get("options")
    if isinstance(options, list) and options:
        return {"option": options[0]["id"]}
    return {"roll": True}


def table(url: str, gm_key: str, index: int, stop: float, tally: Tally) -> None:
    """One table: a GM and a player (two clients, two threads) play fight after fight."""
    example = EXAMPLES[index % len(EXAMPLES)]
    gm = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {gm_key}"}, timeout=30)
    while time.monotonic() < stop:
        r = gm.post("/api/encounters", json={"example": example, "seed": index,
                                             "controllers": {PEOPLE[example]: "person"}})
        eid = r.json()["id"]
        r = gm.post(f"/api/encounters/{eid}/players",
                    json={"name": "p", "combatants": [PEOPLE[example]]})
        player = httpx.Client(base_url=url, timeout=30,
                              headers={"Authorization": f"Bearer {r.json()['key']}"})
        seats = [threading.Thread(target=seat, args=(c, eid, stop, tally, PEOPLE[example],
                                                     c is gm))
                 for c in (gm, player)]
        for t in seats:
            t.start()
        for t in seats:
            t.join()
        player.close()
        with tally.lock:
            tally.fights += 1
    gm.close()


def seat(client: httpx.Client, eid: str, stop: float, tally: Tally, person: str,
         is_gm: bool) -> None:
    """Answer this seat's decisions (the GM: all but the player's) until the fight ends."""
    while time.monotonic() < stop:
        view = client.get(f"/api/encounters/{eid}").json()
        if view["over"]:
            return
        pending = view["pending"]
        if (pending["who"] == person) == is_gm:
            time.sleep(0.005)
            continue
        start = time.perf_counter()
        r = client.post(f"/api/encounters/{eid}/decisions",
                        json={"version": view["version"],
                              "answer": answer_for(pending["decision"])})
        took = time.perf_counter() - start
        with tally.lock:
            if r.status_code == 200:
                tally.latencies.append(took)
            elif r.status_code == 409:
                tally.conflicts += 1
            else:
                tally.errors += 1


def run(label: str, db: str, encounters: int, seconds: float) -> None:
    server = ServerProcess(db).start()
    try:
        gm_key = httpx.post(server.url + "/api/gms").json()["key"]
        tally = Tally()
        stop = time.monotonic() + seconds
        began = time.perf_counter()
        tables = [threading.Thread(target=table, args=(server.url, gm_key, i, stop, tally))
                  for i in range(encounters)]
        for t in tables:
            t.start()
        for t in tables:
            t.join()
        elapsed = time.perf_counter() - began
    finally:
        server.stop()
    lat = sorted(tally.latencies)
    if not lat:
        print(f"{label}: no decision made")
        return
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000
    print(f"{label:<11} {encounters} tables x (GM + player), {elapsed:.1f} s: "
          f"{len(lat) / elapsed:7.1f} decisions/s, p50 {p50:6.1f} ms, p99 {p99:6.1f} ms, "
          f"{tally.fights} fights, {tally.conflicts} conflicts, {tally.errors} errors")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encounters", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run("SQLite", f"sqlite:///{Path(tmp) / 'bench.sqlite3'}", args.encounters,
            args.seconds)
    if args.no_postgres or postgres_bin() is None:
        print("PostgreSQL: not installed, skipped")
        return
    with throwaway_postgres() as url:
        run("PostgreSQL", url, args.encounters, args.seconds)


if __name__ == "__main__":
    main()
