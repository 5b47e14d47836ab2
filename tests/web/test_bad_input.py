"""Bad input over HTTP gets a 4xx with a clear message (the CLI's own for scenarios), never
a 500: malformed JSON, wrong types, huge bodies, unknown ids, bad answers and dice."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.errors import InputError
from fracas.registry.scenarios import scenario_from_mapping
from fracas.systems.zamani.table import load_action_table, table_from_mapping
from fracas.web.app import MAX_BODY, create_app
from tests.web.helpers import Client, invite, new_encounter, new_gm, open_example

DUEL = "tristat/duel-fight.yaml"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Client, str]]:
    db = tmp_path_factory.mktemp("bad") / "t.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}")) as http:
        gm = new_gm(http)
        eid = new_encounter(gm, DUEL, people=["rin"])["id"]
        yield http, gm, eid


def test_malformed_json_is_a_400_naming_the_problem(world: tuple[TestClient, Client, str]
                                                    ) -> None:
    http, gm, eid = world
    r = http.post(f"/api/encounters/{eid}/decisions", content=b'{"version": 1, "answer": ',
                  headers={**gm.headers, "content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("malformed JSON")


def test_wrong_types_name_the_field(world: tuple[TestClient, Client, str]) -> None:
    _, gm, eid = world
    r = gm.post(f"/api/encounters/{eid}/decisions", {"version": "seven", "answer": {}})
    assert r.status_code == 422 and r.json()["error"].startswith("version:")
    r = gm.post(f"/api/encounters/{eid}/decisions", {"version": 1})
    assert r.status_code == 422 and r.json()["error"] == "answer: this field is required"
    r = gm.post(f"/api/encounters/{eid}/decisions", {"version": 1, "answer": {}, "x": 1})
    assert r.status_code == 422 and r.json()["error"].startswith("x:")
    r = gm.post(f"/api/encounters/{eid}/undo", {"version": 1, "steps": 0})
    assert r.status_code == 422 and r.json()["error"].startswith("steps:")


def test_a_huge_body_is_refused_with_413(world: tuple[TestClient, Client, str]) -> None:
    http, gm, eid = world
    big = json.dumps({"version": 1, "answer": {"option": "x" * (MAX_BODY + 10)}})
    r = http.post(f"/api/encounters/{eid}/decisions", content=big,
                  headers={**gm.headers, "content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        for _ in range(MAX_BODY // 65536 + 2):
            yield b" " * 65536

    r = http.post(f"/api/encounters/{eid}/decisions", content=chunks(),
                  headers={**gm.headers, "content-type": "application/json"})
    assert r.status_code == 413


def test_unknown_ids_are_404_or_name_what_is_allowed(world: tuple[TestClient, Client, str]
                                                     ) -> None:
    _, gm, eid = world
    assert gm.get("/api/encounters/nosuchthing").status_code == 404
    r = gm.post("/api/encounters", {"example": "tristat/nope.yaml"})
    assert r.status_code == 400 and "tristat/duel-fight.yaml" in r.json()["error"]
    r = gm.post(f"/api/encounters/{eid}/players", {"name": "x", "combatants": ["nobody"]})
    assert r.status_code == 400 and "rin" in r.json()["error"]
    r = gm.put(f"/api/encounters/{eid}/settings", {"others": "blurry"})
    assert r.status_code == 400
    assert r.json()["error"] == ("settings.others: unknown visibility 'blurry' "
                                 "(allowed: exact, bar, status, hidden)")


def test_bad_answers_are_400_and_change_nothing(world: tuple[TestClient, Client, str]) -> None:
    _, gm, eid = world
    view = gm.view(eid)
    for answer in ({"option": "no-such-option"}, {"dice": ["x"]}, {"dice": [999, -3]}, {}):
        r = gm.decide(eid, view["version"], answer)
        assert r.status_code == 400, (answer, r.text)
        assert r.json()["error"]
    assert gm.view(eid) == view


def test_dice_sent_to_a_choice_are_refused_naming_the_options(
        world: tuple[TestClient, Client, str]) -> None:
    _, gm, _ = world
    eid = open_example(gm, DUEL, seed=3)
    view = gm.view(eid)
    while view["pending"]["kind"] == "dice":  # the initiative rolls, to the first choice
        assert gm.decide(eid, view["version"], {"roll": True}).status_code == 200
        view = gm.view(eid)
    decision = view["pending"]["decision"]
    ids = ", ".join(o["id"] for o in decision["options"])
    told = {}
    for name, answer in (("roll", {"roll": True}), ("dice", {"dice": [3, 4]}),
                         ("option", {})):
        r = gm.decide(eid, view["version"], answer)
        assert r.status_code == 400, (answer, r.text)
        told[name] = r.json()["error"]
    assert told["roll"] == (f"roll: {decision['prompt']} is a choice, not a roll "
                            f"(allowed: option: {ids})")
    assert told["dice"].startswith(f"dice: {decision['prompt']} is a choice, not a roll")
    assert told["option"] == (f"option: {decision['prompt']}: choose one of its options "
                              f"(allowed: option: {ids})")
    assert gm.view(eid) == view


def test_scenario_errors_are_the_cli_messages(world: tuple[TestClient, Client, str]) -> None:
    _, gm, _ = world
    bad = {"system": "tristat", "combatants": [{"id": "a", "side": "x", "body": -1}]}
    with pytest.raises(InputError) as cli:
        scenario_from_mapping(bad)
    r = gm.post("/api/encounters", {"scenario": bad})
    assert r.status_code == 400 and r.json()["error"] == str(cli.value)
    r = gm.post("/api/encounters", {"scenario_yaml": "system: tristat\ncombatants: [\n"})
    assert r.status_code == 400 and "not valid YAML" in r.json()["error"]
    assert "line" in r.json()["error"]
    r = gm.post("/api/encounters", {"scenario": {"system": "nosuch", "combatants": []}})
    assert r.status_code == 400


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values, path=st.sampled_from(["decisions", "undo", "adjust", "end",
                                               "players"]))
def test_any_json_body_gets_an_answer_below_500(world: tuple[TestClient, Client, str],
                                                body: Any, path: str) -> None:
    _, gm, eid = world
    r = gm.post(f"/api/encounters/{eid}/{path}", body)
    assert r.status_code < 500, r.text
    assert r.status_code == 200 or r.json()["error"]


def test_nan_and_infinity_are_refused(world: tuple[TestClient, Client, str]) -> None:
    http, gm, eid = world
    for body in (b'{"version": 1, "answer": {"option": NaN}}',
                 b'{"version": 1, "combatant": "rin", "field": "health", "value": Infinity}'):
        path = "decisions" if b"answer" in body else "adjust"
        r = http.post(f"/api/encounters/{eid}/{path}", content=body,
                      headers={**gm.headers, "content-type": "application/json"})
        expected = "answer.option: an option is the id" if path == "decisions" else "finite"
        assert r.status_code == 422 and expected in r.json()["error"], r.text


def test_a_player_can_not_answer_with_the_gm_form(world: tuple[TestClient, Client, str]) -> None:
    _, gm, eid = world
    player = invite(gm, eid, "P", ["rin"])
    r = player.put(f"/api/encounters/{eid}/settings", {"others": "exact"})
    assert r.status_code == 403


def test_a_posted_scenario_may_not_name_a_table_file(
        world: tuple[TestClient, Client, str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario sent to the server has no folder: naming a table file is a 400 that says
    to put the table inline, and nothing is read, even a file that exists in the server's
    working directory; the same table inline is accepted."""
    _, gm, _ = world
    example = EXAMPLES / "zamani" / "gm_table.yaml"
    (tmp_path / "tables").mkdir()
    shutil.copy(EXAMPLES / "zamani" / "tables" / "gm_table.csv", tmp_path / "tables")
    monkeypatch.chdir(tmp_path)  # the file is there: still refused
    text = example.read_text(encoding="utf-8")
    for body in ({"scenario_yaml": text}, {"scenario": yaml.safe_load(text)}):
        r = gm.post("/api/encounters", body)
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error.startswith("rules.action_table: action table 'tables/gm_table.csv': a "
                                "scenario sent to the server has no folder")
        assert "inline table" in error
    table = load_action_table(str(EXAMPLES / "zamani" / "tables" / "gm_table.csv"))
    inline = yaml.safe_load(text)
    inline["rules"]["action_table"] = table.to_mapping()
    r = gm.post("/api/encounters", {"scenario": inline})
    assert r.status_code == 201, r.text


def test_an_example_naming_a_table_file_is_stored_with_the_table_inline(
        world: tuple[TestClient, Client, str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's own example reads its table from the example's folder (not the working
    directory), and the encounter keeps the table inline: it stands alone."""
    _, gm, _ = world
    monkeypatch.chdir(tmp_path)
    r = gm.post("/api/encounters", {"example": "zamani/gm_table.yaml", "seed": 1})
    assert r.status_code == 201, r.text
    eid = r.json()["id"]
    stored = gm.http.app.state.tracker.store.encounter(eid).scenario  # type: ignore[attr-defined]
    table = load_action_table(str(EXAMPLES / "zamani" / "tables" / "gm_table.csv"))
    assert stored["rules"]["action_table"] == json.loads(json.dumps(table.to_mapping()))
    assert table_from_mapping(stored["rules"]["action_table"], "stored").cells == table.cells
    assert gm.view(eid)["version"] >= 1
