"""A fuzz of the tracker's API (issue 26, item 12): no request, however hostile, gets a 5xx.

Two parts, both in bounded time: schemathesis generates requests for every operation of the
app's own OpenAPI document (with a real encounter and its current version put in, so the
requests reach past the 404s and 409s), and Hypothesis sends what an attacker would try
(deep nesting, huge numbers, control characters, wrong types in answers and hand edits) on
SQLite and on PostgreSQL, each followed by the views and a decision, which must still work.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.web.app import create_app
from tests.web.helpers import answer_for, invite, new_encounter, new_gm

DUEL = "tristat/duel-fight.yaml"
STREAM = "/api/encounters/{eid}/stream"  # endless by design: not fuzzed here


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    db = tmp_path_factory.mktemp("fuzz") / "t.sqlite3"
    app = create_app(f"sqlite:///{db}")
    with TestClient(app, raise_server_exceptions=False) as http:
        gm = new_gm(http)
        eid = new_encounter(gm, DUEL, people=["rin"])["id"]
        player = invite(gm, eid, "P", ["rin"])
        yield {"app": app, "http": http, "eid": eid,
               "keys": itertools.cycle([gm.headers, player.headers, gm.headers])}


def operations() -> list[Any]:
    """Every operation of the app's OpenAPI document but the stream."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/schema.sqlite3")
        loaded = schemathesis.openapi.from_asgi("/openapi.json", app)
        ops = [r.ok() for r in loaded.get_all_operations()]
    return [op for op in ops if op.path != STREAM]


def _has_input(operation: Any) -> bool:
    raw = operation.definition.raw
    return bool(raw.get("requestBody"))


# each operation with valid requests; those that take a body with invalid ones too
CASES = [(op, mode) for op in operations() for mode in schemathesis.GenerationMode
         if mode is schemathesis.GenerationMode.POSITIVE or _has_input(op)]


@pytest.mark.parametrize(("operation", "mode"), CASES,
                         ids=[f"{op.method} {op.path} {mode.value}" for op, mode in CASES])
def test_no_operation_of_the_api_gives_a_5xx(operation: Any, mode: Any,
                                             fuzzed: dict[str, Any]) -> None:
    """Requests that fit the schema (positive) and that break it (negative)."""
    http: TestClient = fuzzed["http"]
    eid = fuzzed["eid"]
    seen: list[int] = []

    @given(operation.as_strategy(mode))
    @settings(max_examples=30, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(case: Any) -> None:
        if "eid" in (case.path_parameters or {}):
            case.path_parameters["eid"] = eid
        headers = next(fuzzed["keys"])
        if isinstance(case.body, dict) and isinstance(case.body.get("version"), int):
            case.body["version"] = http.get(f"/api/encounters/{eid}",
                                            headers=headers).json().get("version", 0)
        response = case.call(app=fuzzed["app"], headers=headers)
        seen.append(response.status_code)
        assert response.status_code < 500, (case.method, case.formatted_path, case.body,
                                            response.text)

    fuzz()
    assert seen and all(s < 500 for s in seen)


# -- what an attacker would send -----------------------------------------------------------

def nested(depth: int, kind: str) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


hostile_text = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["\x00", "a\x00b", "\x1b[31m", "\ud7ff", "--5", "9" * 5000, "-1",
                     "1e400", "NaN", "none", "", " ", "[", "{a: ", "*x", "&x [*x]"]),
    st.integers(1, 30).map(lambda n: "[" * (n * 1000)),
    st.integers(1, 30).map(lambda n: "{a: " * (n * 1000)),
    st.integers(1, 30).map(lambda n: "- " * (n * 1000)),
)
hostile_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.integers(10**300, 10**400),
              st.floats(allow_nan=False, allow_infinity=False), hostile_text),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3),
    max_leaves=8,
) | st.sampled_from([nested(70, "list"), nested(70, "dict"), nested(500, "list")])

STATE_FIELDS = ["health", "max_health", "energy", "conditions", "grappled_by", "attacks_used",
                "total_defense", "disarmed", "loosened", "initiative", "roll_off", "sheathed",
                "nope"]


@st.composite
def attacks(draw: st.DrawFn) -> tuple[str, str, Any, bool]:
    """(method, path under the encounter or '' for a new one, JSON body, as the player)."""
    kind = draw(st.sampled_from(["answer", "dice", "adjust", "add", "create", "invite", "end",
                                 "settings", "undo"]))
    value = draw(hostile_json)
    text = draw(hostile_text)
    player = draw(st.booleans())
    if kind == "answer":
        return "POST", "decisions", {"answer": {"option": value}}, player
    if kind == "dice":
        return "POST", "decisions", {"answer": {"dice": draw(st.one_of(
            st.just(value), st.just(text), st.lists(hostile_json, max_size=4)))}}, player
    if kind == "adjust":
        return "POST", "adjust", {"combatant": draw(st.sampled_from(["rin", "gorr", text])),
                                  "field": draw(st.sampled_from(STATE_FIELDS)),
                                  "value": value}, False
    if kind == "add":
        return "POST", "combatants", draw(st.sampled_from([
            {"entry_yaml": text}, {"entry": value}, {"entry": {"id": value, "name": text}}])), False
    if kind == "create":
        return "POST", "", draw(st.sampled_from([
            {"scenario_yaml": text}, {"scenario": value}, {"example": text},
            {"example": DUEL, "title": text}, {"example": DUEL, "seed": value},
            {"example": DUEL, "controllers": value}, {"example": DUEL, "settings": value}])), False
    if kind == "invite":
        return "POST", "players", {"name": text, "combatants": draw(st.one_of(
            st.just(value), st.lists(st.sampled_from(["rin", text]), max_size=3)))}, False
    if kind == "end":
        return "POST", "end", {"reason": text}, False
    if kind == "settings":
        return "PUT", "settings", draw(st.sampled_from([
            {"others": value}, {"hidden": value}, {"others": text}])), False
    return "POST", draw(st.sampled_from(["undo", "redo"])), {"steps": value}, False


@pytest.fixture
def table(db_url: str) -> Iterator[dict[str, Any]]:
    with TestClient(create_app(db_url), raise_server_exceptions=False) as http:
        gm = new_gm(http)
        eid = new_encounter(gm, DUEL, people=["rin"])["id"]
        player = invite(gm, eid, "P", ["rin"])
        yield {"http": http, "gm": gm, "player": player, "eid": eid}


HIDDEN = {"others": "hidden", "hidden": ["gorr"]}  # Gorr is hidden from the players
GORR = re.compile(r"gorr", re.IGNORECASE)


def test_hostile_requests_never_give_a_5xx(table: dict[str, Any]) -> None:
    """No 5xx, and (issue 26, item 14) nothing the player receives, an error message
    included, names the combatant hidden from the players."""
    http, gm, player, eid = table["http"], table["gm"], table["player"], table["eid"]
    seen: list[int] = []

    @given(attacks())
    @settings(max_examples=100, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def attack(sent: tuple[str, str, Any, bool]) -> None:
        method, path, body, as_player = sent
        who = player if as_player else gm
        assert gm.put(f"/api/encounters/{eid}/settings", HIDDEN).status_code == 200
        version = gm.view(eid)["version"]
        if path:
            body = {"version": version, **body} if path != "settings" else body
            url = f"/api/encounters/{eid}/{path}"
        else:
            url = "/api/encounters"
        r = http.request(method, url, json=body, headers=who.headers)
        seen.append(r.status_code)
        assert r.status_code < 500, (url, body, r.text)
        if as_player:
            assert not GORR.search(r.text), (url, body, r.text)
        # whatever was accepted, the views and the next decision still work
        for viewer in (gm, player):
            v = viewer.get(f"/api/encounters/{eid}")
            assert v.status_code == 200, v.text
        if gm.put(f"/api/encounters/{eid}/settings", HIDDEN).status_code == 200:
            shown = player.get(f"/api/encounters/{eid}").text
            assert not GORR.search(shown), shown[:2000]
        view = gm.view(eid)
        if not view["over"]:
            r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
            assert r.status_code < 500, r.text
        if r.status_code == 200 and path in ("adjust", "combatants", "end"):
            http.post(f"/api/encounters/{eid}/undo", json={"version": gm.view(eid)["version"]},
                      headers=gm.headers)

    attack()
    assert len(seen) == 100 and any(400 <= s < 500 for s in seen)
