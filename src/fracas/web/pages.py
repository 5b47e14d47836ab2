"""The pages: plain server-rendered HTML (Jinja2) over the same views as the API.

A small script (``static/fracas.js``, no build step) follows the live channel and
swaps in the panel; buttons and forms post to the JSON API.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from fracas.encounter.policies import DEFAULT_POLICY
from fracas.errors import InputError
from fracas.registry import systems
from fracas.registry.examples import all_examples, load_example
from fracas.web.api import view, yaml_text
from fracas.web.auth import GM_COOKIE, Unauthorized, gm_id, player_cookie, role_for
from fracas.web.compose import composed
from fracas.web.tracker import MAX_SEED, MAX_TITLE

router = APIRouter()
TEMPLATES = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"),
                        autoescape=select_autoescape(["html"]))
MAX_UPLOAD = 200_000


def fraction_value(text: Any) -> float:
    """A fraction given as text (``"13/648"``) as a float."""
    num, _, den = str(text).partition("/")
    return float(num) / float(den or 1)


def percent(text: Any) -> str:
    value = 100 * fraction_value(text)
    return "<0.1%" if 0 < value < 0.1 else f"{value:.1f}%"


TEMPLATES.filters["percent"] = percent
TEMPLATES.filters["decimal"] = lambda text: f"{fraction_value(text):.2f}"
YEAR = 60 * 60 * 24 * 365


def set_key_cookie(response: Response, name: str, key: str) -> None:
    """An HttpOnly cookie that keeps the key out of every address and out of scripts."""
    response.set_cookie(name, key, max_age=YEAR, httponly=True, samesite="lax")


def render(name: str, code: int = 200, **context: Any) -> HTMLResponse:
    return HTMLResponse(TEMPLATES.get_template(name).render(**context), status_code=code)


def wants_html(request: Request) -> bool:
    return not request.url.path.startswith("/api")


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    return render("error.html", status, status=status, message=message)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    signed_in = True
    try:
        gm_id(request.app.state.tracker.store, request)
    except Unauthorized:
        signed_in = False
    return render("home.html", signed_in=signed_in)


@router.post("/start", response_class=HTMLResponse)
def start(request: Request) -> HTMLResponse:
    """A new GM: their admin link, shown once; the cookie signs this browser in."""
    _, key = request.app.state.tracker.store.create_gm()
    link = f"{str(request.base_url).rstrip('/')}/gm/{key}"
    response = render("start.html", link=link)
    set_key_cookie(response, GM_COOKIE, key)
    return response


@router.get("/gm/{key}")
def admin_link(request: Request, key: str) -> Response:
    if request.app.state.tracker.store.gm_by_key(key) is None:
        raise Unauthorized("this admin link is not valid")
    response = RedirectResponse("/gm", status_code=303)
    set_key_cookie(response, GM_COOKIE, key)
    return response


@router.get("/join/{key}")
def join(request: Request, key: str) -> Response:
    player = request.app.state.tracker.store.player_by_key(key)
    if player is None:
        raise Unauthorized("this invite link is not valid")
    response = RedirectResponse(f"/e/{player.encounter_id}", status_code=303)
    set_key_cookie(response, player_cookie(player.encounter_id), key)
    return response


@functools.cache
def example_groups() -> list[tuple[str, list[tuple[str, str]]]]:
    """The examples by system (where each system ships them, a plug-in's too: see
    :mod:`fracas.registry.examples`), whole fights first, each with its title and its
    one line."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for e in all_examples():
        groups.setdefault(e.system, []).append(
            (e.name, f"{e.title} — {e.description}" if e.description else e.title))
    for entries in groups.values():
        entries.sort(key=lambda e: ("fight" not in e[0], e[1].lower()))
    return sorted(groups.items())


def dashboard(request: Request, status: int = 200, error: str | None = None,
              form: dict[str, Any] | None = None) -> HTMLResponse:
    tracker = request.app.state.tracker
    gid = gm_id(tracker.store, request)
    return render("gm.html", status, encounters=tracker.store.encounters_of(gid),
                  examples=example_groups(), systems=sorted(systems()), error=error,
                  form=form or {}, max_title=MAX_TITLE, who_rolls=WHO_ROLLS,
                  who_rolls_choices=WHO_ROLLS_CHOICES)


@router.get("/gm", response_class=HTMLResponse)
def gm_page(request: Request) -> HTMLResponse:
    return dashboard(request)


#: the new-encounter form's question of who rolls the dice of the GM's combatants, and its
#: choices, in the words the form shows them (an answer it did not offer is refused in them)
WHO_ROLLS = "The dice of the combatants you run"
WHO_ROLLS_CHOICES = {"fracas": "fracas rolls them and says what it rolled",
                     "typed": "you type them on your desk (or tap “Roll for me”)"}


def form_rollers(value: str) -> str:
    """The form's choice of who rolls the GM side's dice: one it offers, or refused in its
    words (a crafted post, an old page)."""
    if value not in WHO_ROLLS_CHOICES:
        shown = value if len(value) <= 30 else value[:30] + "..."
        raise InputError(f"{shown!r} is not a choice the form offers", path=WHO_ROLLS,
                         allowed=", or ".join(WHO_ROLLS_CHOICES.values()))
    return value


def form_seed(text: str) -> int | None:
    """The seed typed in the form: empty (a random one) or a whole number from 0 on."""
    text = text.strip()
    if not text:
        return None
    if not re.fullmatch(r"[0-9]{1,19}", text) or int(text) > MAX_SEED:
        shown = text if len(text) <= 30 else text[:30] + "..."
        raise InputError(f"the seed must be a whole number, not {shown!r}", path="seed",
                         allowed=f"a whole number from 0 to {MAX_SEED}")
    return int(text)


@router.post("/gm/encounters")
async def create(request: Request, source: str = Form("example"), example: str = Form(""),
                 file: UploadFile | None = None, system: str = Form(""),
                 combatants: str = Form(""), title: str = Form(""),
                 auto: str = Form(""), seed: str = Form(""),
                 roll_all: str = Form(""), gm_dice: str = Form("fracas")) -> Response:
    """Create an encounter from an example, an uploaded file or combatants typed in."""
    import asyncio

    tracker = request.app.state.tracker
    form = {"source": source, "example": example, "system": system, "combatants": combatants,
            "title": title, "auto": auto, "seed": seed, "roll_all": roll_all,
            "gm_dice": gm_dice}
    try:
        gid = await asyncio.to_thread(gm_id, tracker.store, request)
        name: str | None
        if source == "example":
            raw, name = load_example(example), example
        elif source == "file":
            if file is None or not file.filename:
                raise InputError("choose a scenario file to upload", path="file")
            data = await file.read(MAX_UPLOAD + 1)
            if len(data) > MAX_UPLOAD:
                raise InputError("the file is too large", file=file.filename,
                                 allowed=f"at most {MAX_UPLOAD} bytes")
            text = data.decode("utf-8", "replace")
            raw = await asyncio.to_thread(yaml_text, text, file.filename)
            name = file.filename
        elif source == "build":
            entries = await asyncio.to_thread(yaml_text, combatants, "combatants")
            raw, name = {"system": system, "combatants": entries}, None
        else:
            raise InputError(f"unknown source {source!r}", path="source",
                             allowed="example, file, build")
        # the GM decides for everybody a player does not, except the sides fracas plays
        sides = [s.strip() for s in auto.split(",") if s.strip()]
        controllers = None
        if sides and isinstance(raw, dict) and isinstance(raw.get("combatants"), list):
            entries = [c for c in raw["combatants"]
                       if isinstance(c, dict) and isinstance(c.get("id"), str)]
            known = list(dict.fromkeys(c["side"] for c in entries
                                       if isinstance(c.get("side"), str)))
            unknown = [s for s in sides if s not in known]
            if unknown:
                raise InputError(f"no side {unknown[0]!r} in this encounter",
                                 path="sides fracas plays", allowed=", ".join(known))
            controllers = {c["id"]: str(c.get("policy") or DEFAULT_POLICY)
                           for c in entries if c.get("side") in sides}
        info = await asyncio.to_thread(
            tracker.create, gid, raw, file=name, title=title.strip() or None,
            seed=form_seed(seed), controllers=controllers,
            roll_all=bool(roll_all), gm_dice=form_rollers(gm_dice))
    except InputError as err:
        return await asyncio.to_thread(dashboard, request, 400, str(err), form)
    return RedirectResponse(f"/e/{info.id}", status_code=303)


@router.get("/e/{eid}", response_class=HTMLResponse)
def encounter_page(request: Request, eid: str) -> HTMLResponse:
    role = role_for(request.app.state.tracker.store, request, eid)
    v = view(request, eid, role)
    return render("encounter.html", v=v, compose=composed(request, eid, role, v, ""))


@router.get("/e/{eid}/panel", response_class=HTMLResponse)
def panel(request: Request, eid: str, draft: str = "") -> HTMLResponse:
    """The panel; an action decision drawn at the step ``draft`` is at (see web.compose)."""
    role = role_for(request.app.state.tracker.store, request, eid)
    v = view(request, eid, role)
    return render("panel.html", v=v, compose=composed(request, eid, role, v, draft))
