"""A typed API (issue 38, item 6): every JSON answer of the web API has its shape in
``/openapi.json`` (no empty or untyped schema anywhere, a test walks the document), the
live stream is declared ``text/event-stream`` with its event's schema, and the answers a
real server gives on a loopback port fit what is declared: a whole fight checked answer by
answer with jsonschema, and schemathesis's own response checks on every operation (a
bounded run)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from fracas.web.testing import ServerProcess

STREAM = "/api/encounters/{eid}/stream"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    running = ServerProcess(str(tmp_path_factory.mktemp("api") / "t.sqlite3")).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def document(server: ServerProcess) -> dict[str, Any]:
    return httpx.get(server.url + "/openapi.json", timeout=60).json()  # type: ignore[no-any-return]


def _untyped(schema: Any, where: str, doc: dict[str, Any], seen: set[str]) -> list[str]:
    """Every place under ``schema`` that says nothing of its shape: ``{}``, an object
    with no properties and nothing for its values, an array with untyped items."""
    if not isinstance(schema, dict) or not schema:
        return [where]
    ref = schema.get("$ref")
    if ref is not None:
        if ref in seen:
            return []
        seen.add(ref)
        name = ref.rsplit("/", 1)[-1]
        target = doc["components"]["schemas"].get(name)
        return _untyped(target, f"{where} -> {name}", doc, seen)
    found: list[str] = []
    for key in ("anyOf", "oneOf", "allOf"):
        for i, part in enumerate(schema.get(key, [])):
            found += _untyped(part, f"{where}.{key}[{i}]", doc, seen)
    if any(k in schema for k in ("anyOf", "oneOf", "allOf")):
        return found
    kind = schema.get("type")
    if kind is None:
        return [where]
    if kind == "object":
        props = schema.get("properties") or {}
        values = schema.get("additionalProperties")
        if not props and not isinstance(values, dict):
            return [where]
        for name, prop in props.items():
            found += _untyped(prop, f"{where}.{name}", doc, seen)
        if isinstance(values, dict):
            found += _untyped(values, f"{where}[*]", doc, seen)
    if kind == "array":
        found += _untyped(schema.get("items"), f"{where}[]", doc, seen)
    return found


def test_no_answer_of_the_api_has_an_empty_or_untyped_schema(document: dict[str, Any]
                                                            ) -> None:
    untyped, answers = [], 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                for media, content in (response.get("content") or {}).items():
                    answers += 1
                    where = f"{method.upper()} {path} {status} {media}"
                    untyped += _untyped(content.get("schema"), where, document, set())
    # the Json values of a sheet (any JSON) are typed as the union of JSON's types
    assert answers > 60 and untyped == [], untyped[:20]
    assert not [p for p in document["paths"] if not p.startswith("/api/")]  # pages: not API


def test_the_stream_is_declared_as_server_sent_events(document: dict[str, Any]) -> None:
    ok = document["paths"][STREAM]["get"]["responses"]["200"]["content"]
    assert list(ok) == ["text/event-stream"]
    assert ok["text/event-stream"]["itemSchema"]["properties"]["version"]["type"] == "integer"


def _check(document: dict[str, Any], method: str, path: str, response: httpx.Response
           ) -> None:
    """The answer fits the schema the document declares for it."""
    declared = document["paths"][path][method]["responses"][str(response.status_code)]
    schema = declared["content"]["application/json"]["schema"]
    jsonschema.Draft202012Validator({**schema, "components": document["components"]}
                                    ).validate(response.json())


def test_a_whole_fight_answers_in_the_declared_shapes(server: ServerProcess,
                                                      document: dict[str, Any]) -> None:
    """As the GM and as a player, every kind of answer: made, viewed, decided, undone,
    redone, edited, refused (404, 409, 403, 400)."""
    with httpx.Client(base_url=server.url, timeout=60) as http:
        made = http.post("/api/gms")
        _check(document, "post", "/api/gms", made)
        gm = {"Authorization": f"Bearer {made.json()['key']}"}
        _check(document, "get", "/api/examples", http.get("/api/examples"))
        new = http.post("/api/encounters", headers=gm,
                        json={"example": "tristat/duel-fight.yaml", "seed": 3})
        _check(document, "post", "/api/encounters", new)
        eid = new.json()["id"]
        _check(document, "get", "/api/encounters", http.get("/api/encounters", headers=gm))
        player = http.post(f"/api/encounters/{eid}/players", headers=gm,
                           json={"name": "Pat", "combatants": ["rin"]})
        _check(document, "post", "/api/encounters/{eid}/players", player)
        pat = {"Authorization": f"Bearer {player.json()['key']}"}
        one = "/api/encounters/{eid}"
        view = http.get(f"/api/encounters/{eid}", headers=gm)
        for _ in range(400):
            _check(document, "get", one, view)
            _check(document, "get", one, http.get(f"/api/encounters/{eid}", headers=pat))
            body = view.json()
            if body["over"]:
                break
            decision = body["pending"]["decision"]
            answer = ({"option": decision["options"][0]["id"]} if decision["options"]
                      else {"roll": True})
            view = http.post(f"/api/encounters/{eid}/decisions", headers=gm,
                             json={"version": body["version"], "answer": answer})
            _check(document, "post", one + "/decisions", view)
        version = view.json()["version"]
        for step in ("undo", "redo"):
            done = http.post(f"/api/encounters/{eid}/{step}", headers=gm,
                             json={"version": version, "steps": 1})
            _check(document, "post", f"{one}/{step}", done)
            version = done.json()["version"]
        stale = http.post(f"/api/encounters/{eid}/undo", headers=gm,
                          json={"version": 0, "steps": 1})
        assert stale.status_code == 409
        _check(document, "post", one + "/undo", stale)
        refused = http.post(f"/api/encounters/{eid}/undo", headers=pat,
                            json={"version": version, "steps": 1})
        assert refused.status_code == 403
        _check(document, "post", one + "/undo", refused)
        missing = http.get("/api/encounters/nope", headers=gm)
        assert missing.status_code == 404
        _check(document, "get", one, missing)
        settings_ = http.put(f"/api/encounters/{eid}/settings", headers=gm,
                             json={"others": "status"})
        _check(document, "put", one + "/settings", settings_)


def _operations(url: str) -> list[Any]:
    loaded = schemathesis.openapi.from_url(url + "/openapi.json")
    return [r.ok() for r in loaded.get_all_operations() if r.ok().path != STREAM]


def test_schemathesis_finds_every_answer_in_its_declared_shape(server: ServerProcess,
                                                               tmp_path: Path) -> None:
    """Requests generated from the document (valid ones, with a real encounter and its
    current version put in, so they reach past the 404s and 409s), and schemathesis's
    checks of each answer against the schema, status and content type declared."""
    from schemathesis import checks

    with httpx.Client(base_url=server.url, timeout=60) as http:
        key = http.post("/api/gms").json()["key"]
        gm = {"Authorization": f"Bearer {key}"}
        eid = http.post("/api/encounters", headers=gm,
                        json={"example": "tristat/duel-fight.yaml"}).json()["id"]
        keys = itertools.cycle([gm, {}])
        wanted = [checks.response_schema_conformance, checks.content_type_conformance,
                  checks.status_code_conformance, checks.not_a_server_error]
        calls = 0
        for operation in _operations(server.url):

            @given(operation.as_strategy())
            @settings(max_examples=6, deadline=None, derandomize=True, database=None,
                      suppress_health_check=list(HealthCheck))
            def run(case: Any) -> None:
                nonlocal calls
                if "eid" in (case.path_parameters or {}):
                    case.path_parameters["eid"] = eid
                if isinstance(case.body, dict) and "version" in case.body:
                    case.body["version"] = http.get(f"/api/encounters/{eid}",
                                                    headers=gm).json()["version"]
                case.call_and_validate(base_url=server.url, headers=next(keys),
                                       checks=wanted)
                calls += 1

            run()
    assert calls > 50


def test_the_walk_notices_an_untyped_answer() -> None:
    doc = {"components": {"schemas": {"A": {"type": "object", "properties": {"x": {}}}}}}
    assert _untyped({}, "top", doc, set()) == ["top"]
    assert _untyped({"type": "object"}, "top", doc, set()) == ["top"]
    assert _untyped({"$ref": "#/components/schemas/A"}, "top", doc, set()) == ["top -> A.x"]
