"""The FastAPI application: the API, the pages, the static files, the error answers.

Every error a request can cause is a 4xx with ``{"error": message}``: bad input (400,
the CLI's own message), no key (401), the wrong role (403), an unknown encounter (404),
a stale version (409), a body over :data:`MAX_BODY` bytes (413), a malformed body (422);
the database full, gone or restarting is 503 with a ``Retry-After`` and a message the page
shows (:data:`UNAVAILABLE`).
"""

from __future__ import annotations

import gc
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from fracas.core.scenario import SHOWN, and_more
from fracas.errors import FracasError, InputError, format_loc
from fracas.web import api, gm_api, pages, winning_api
from fracas.web.auth import Unauthorized
from fracas.web.live import Hub, Listener
from fracas.web.odds import WORKER
from fracas.web.store import (
    RETRY_AFTER,
    UNAVAILABLE,
    UNREADABLE,
    Conflict,
    Memory,
    NotFound,
    Store,
)
from fracas.web.tracker import Forbidden, Tracker
from fracas.web.winning import WINNING

MAX_BODY = 1_000_000
STATIC = Path(__file__).parent / "static"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413, declared or streamed."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        if scope.get("method") in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        # read the whole body first (at most ``limit`` bytes), then hand it on
        parts: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            seen += len(message.get("body", b""))
            if seen > self.limit:
                await self._refuse(send)
                return
            parts.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(parts), "more_body": False}
        await self.app(scope, _replay([body], receive), send)

    async def _refuse(self, send: Send) -> None:
        body = (b'{"error": "the request body is too large (allowed: at most '
                + str(self.limit).encode() + b' bytes)"}')
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A receive that gives ``messages`` first, then the real ones (e.g. a disconnect)."""
    queue = list(messages)

    async def replayed() -> Message:
        if queue:
            return queue.pop(0)
        return await receive()

    return replayed


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def validation_message(err: RequestValidationError) -> tuple[int, str]:
    """The first problem of a request body, named by its field path."""
    first = err.errors()[0]
    kind = str(first.get("type", ""))
    if kind == "json_invalid":
        reason = (first.get("ctx") or {}).get("error", "not valid JSON")
        return 400, f"malformed JSON: {reason}"
    told = [_problem(e) for e in err.errors()[:1 + SHOWN]]  # each named: mended in one go
    return 422, "; also ".join(told) + and_more(len(err.errors()) - len(told))


def _problem(error: Any) -> str:
    """One problem of a request body: its field path and what is wrong."""
    loc = [p for p in error.get("loc", ()) if p != "body"]
    message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
    if error.get("type") == "missing":
        message = "this field is required"
    return f"{format_loc(loc) if loc else 'body'}: {message}"


DB_VARIABLE = "FRACAS_SERVE_DB"


def warm_up(limit: int = 300) -> list[str]:
    """Load every rule system and play one example fight of each once in memory (its
    ``duel-fight.yaml``, else its first fight; a plug-in's too), so that the first fight
    a server meets runs on code already loaded: the first encounter of each system took
    40–110 ms more (its modules imported, its data read). What cannot be warmed (a
    broken plug-in, a failing example) is left cold and named in the result: a warm-up
    never stops a server."""
    from fracas.encounter.session import Session
    from fracas.registry import broken, systems
    from fracas.registry.examples import all_examples, load_example
    from fracas.registry.scenarios import scenario_from_mapping

    systems()
    cold = [f"{name} ({why.package}): {why.reason}" for name, why in broken().items()]
    fights = {}
    for example in all_examples():
        if example.fight and (example.system not in fights
                              or example.name.endswith("/duel-fight.yaml")):
            fights[example.system] = example.name
    for name in fights.values():
        try:
            scenario = scenario_from_mapping(load_example(name), file=name, folder=None)
            people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
            Session.start(scenario, seed=0, controllers=people, roll_all=True).play_first(limit)
        except Exception as err:  # a warm-up never stops a server
            cold.append(f"{name}: {err}")
    return cold


def settle() -> None:
    """Keep what start-up built out of the cycle collector's way: a full collection now,
    then every object still alive (modules, rule systems, the app: a hundred thousand
    and more) is moved where the collector never walks again. A busy server's full
    collections then walk only what serving has built (they were pauses of up to 190 ms
    at eight tables)."""
    gc.collect()
    gc.freeze()


def from_environment() -> FastAPI:
    """The app on the database named by ``$FRACAS_SERVE_DB``: what each process of
    ``fracas serve --workers N`` runs."""
    return create_app(os.environ[DB_VARIABLE], serving=True)


def create_app(db_url: str, *, serving: bool = False) -> FastAPI:
    """The tracker's app on the database at ``db_url`` (migrated to the newest schema);
    ``serving``: the process is a server of its own (``fracas serve``), whose start-up
    objects are then frozen out of the cycle collector's way (:func:`settle`)."""
    store = Store(db_url)
    hub = Hub()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.stopping = False
        tracker: Tracker = app.state.tracker
        listener = (Listener(db_url, hub, tracker.catch_up).start() if store.postgres
                    else None)
        app.state.listener = listener
        WORKER.start()
        if serving:
            for cold in warm_up():
                logging.getLogger("fracas.web").warning("not warmed up: %s", cold)
            settle()
        yield
        app.state.stopping = True
        if listener is not None:
            listener.stop()
        tracker.close()
        WINNING.close()
        store.close()

    app = FastAPI(title="fracas tracker", version="1",
                  description="A combat tracker with the rules and the odds: GM and players.",
                  lifespan=lifespan)
    app.state.tracker = Tracker(store, hub.notify)
    app.state.hub = hub
    app.state.views = Memory(api.VIEWS)
    app.state.stopping = False

    _handle_errors(app)
    app.include_router(api.router)
    app.include_router(gm_api.router)
    app.include_router(winning_api.router)
    app.include_router(pages.router, include_in_schema=False)  # pages, not the API
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    return app


def _handle_errors(app: FastAPI) -> None:
    """Every error as its caller reads it: a page for a browser, JSON for the API, with
    the status that says what went wrong (no traceback ever reaches a person)."""
    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, err: StarletteHTTPException) -> Any:
        if pages.wants_html(request):
            return pages.error_page(request, err.status_code, str(err.detail))
        return JSONResponse({"error": str(err.detail)}, status_code=err.status_code,
                            headers=getattr(err, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        status, message = validation_message(err)
        return _error(status, message)

    @app.exception_handler(Conflict)
    async def _conflict(request: Request, err: Conflict) -> Any:
        """A change sent for an older version: the API says so (with the version now and
        what the table asks now, for a page that shows it and asks again)."""
        if pages.wants_html(request):
            return pages.error_page(request, 409, str(err))
        body: dict[str, Any] = {"error": str(err)}
        if err.version is not None:
            body["version"] = err.version
        if err.moved_on:
            body["moved_on"] = err.moved_on
        return JSONResponse(body, status_code=409)

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    @app.exception_handler(PoolTimeout)
    async def _unavailable(request: Request, err: Exception) -> Any:
        """The database full, gone or restarting: nothing was written (each change is one
        transaction), so the answer says so and when to try again."""
        logging.getLogger("fracas.web").warning("the database failed: %s",
                                                str(err).splitlines()[0][:300])
        message = UNAVAILABLE if request.method not in ("GET", "HEAD") else UNREADABLE
        headers = {"Retry-After": str(RETRY_AFTER)}
        if pages.wants_html(request):
            page = pages.error_page(request, 503, message)
            page.headers.update(headers)
            return page
        return JSONResponse({"error": message}, status_code=503, headers=headers)

    statuses: list[tuple[type[Exception], int]] = [
        (Unauthorized, 401), (Forbidden, 403), (NotFound, 404), (InputError, 400),
        (FracasError, 400)]
    for kind, status in statuses:
        def handler(request: Request, err: Exception, status: int = status) -> Any:
            if pages.wants_html(request):
                return pages.error_page(request, status, str(err))
            return _error(status, str(err))
        app.add_exception_handler(kind, handler)

    @app.exception_handler(Exception)
    async def _fault(request: Request, err: Exception) -> Any:
        """A fault of the server's own (500): a plug-in's is named (which one, from which
        package, where), never shown as a traceback; the log keeps the traceback."""
        from fracas.registry import blame

        told = blame(err) or "the server failed on this request (its log says why)"
        if pages.wants_html(request):
            return pages.error_page(request, 500, told)
        return _error(500, told)

