"""``fracas serve``: the web tracker (FastAPI on Uvicorn) on a SQLite file or PostgreSQL."""

from __future__ import annotations

from typing import Annotated

import typer

from fracas.cli.base import app


def seed_example(db: str, example: str, people: str | None, base: str) -> list[str]:
    """Create a GM, an encounter from ``example`` and a player invite; the lines to print."""
    from fracas.registry.examples import load_example
    from fracas.web.store import Store
    from fracas.web.tracker import GM, Tracker

    raw = load_example(example)
    store = Store(db)
    try:
        tracker = Tracker(store)
        gid, key = store.create_gm()
        sides = [str(c.get("side")) for c in raw.get("combatants", []) if isinstance(c, dict)]
        side = people or (sides[0] if sides else "")
        controllers = {c["id"]: "person" for c in raw["combatants"] if c.get("side") == side}
        info = tracker.create(gid, raw, file=example, controllers=controllers)
        player = tracker.invite(info.id, GM, f"{side} player", list(controllers))
    finally:
        store.close()
    return [f"encounter {info.title!r} ({info.system})",
            f"  open as the GM:     {base}/gm/{key}",
            f"  open as the player: {base}/join/{player.key}  (controls {side})"]


@app.command()
def serve(
    db: Annotated[str, typer.Option(metavar="DATABASE",
                                    help="Database: a SQLite file path or URL, or "
                                         "postgresql://user:pass@host/db.")] = "fracas.sqlite3",
    host: Annotated[str, typer.Option(
        metavar="ADDRESS", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(
        metavar="PORT", help="Port to listen on.", min=0, max=65535)] = 8000,
    example: Annotated[str | None, typer.Option(
        metavar="FILE",
        help="Also create an encounter from this example (e.g. tristat/duel-fight.yaml) "
             "and print its GM and player links.")] = None,
    people: Annotated[str | None, typer.Option(
        metavar="SIDE",
        help="With --example: the side the player controls (default: the first).")] = None,
    workers: Annotated[int, typer.Option(
        metavar="N", min=1, max=64,
        help="Server processes sharing the address (PostgreSQL only: live updates reach "
             "every process through PostgreSQL's LISTEN/NOTIFY; SQLite runs one).")] = 1,
) -> None:
    """Run the web combat tracker: GM and players in the browser, a JSON API at /docs."""
    import os

    import uvicorn

    from fracas.errors import InputError
    from fracas.web.app import DB_VARIABLE, create_app
    from fracas.web.db import normalize_url
    from fracas.web.store import Store

    postgres = normalize_url(db).startswith("postgresql")
    if workers > 1 and not postgres:
        raise InputError(f"{workers} server processes need PostgreSQL: SQLite has a single "
                         "writer, so the tracker runs as one process on it", path="--workers",
                         allowed="1 on SQLite, or any number with "
                             "--db postgresql://user:password@host:port/dbname")
    base = f"http://{host}:{port}"
    if workers == 1:
        web = create_app(db, serving=True)
    else:
        Store(db).close()  # migrated once, before the processes start
    if example is not None:
        for line in seed_example(db, example, people, base):
            typer.echo(line)
    shown = f"{workers} processes, " if workers > 1 else ""
    typer.echo(f"fracas tracker on {base} ({shown}database {db}); start as a GM at {base}/")
    if workers == 1:
        uvicorn.run(web, host=host, port=port, log_level="warning",
                    timeout_graceful_shutdown=2)
        return
    os.environ[DB_VARIABLE] = db
    serve_processes(host, port, workers)


def serve_processes(host: str, port: int, workers: int) -> None:
    """``workers`` Uvicorn processes of the app on one listening socket. The socket is
    made here as a TCP socket by name: Uvicorn's own leaves its protocol unset, so asyncio
    never turns Nagle's algorithm off on the connections, and each response then waits
    ~40 ms for the client's delayed acknowledgement."""
    import socket

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config("fracas.web.app:from_environment", factory=True, host=host,
                            port=port, workers=workers, log_level="warning",
                            timeout_graceful_shutdown=2)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        from fracas.errors import InputError

        raise InputError(f"cannot listen on {host}:{port}: {err.strerror}", path="--port",
                         allowed="a free port and an address of this machine") from None
    sock.set_inheritable(True)
    Multiprocess(config, sockets=[sock]).run()
