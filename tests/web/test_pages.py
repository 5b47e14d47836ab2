"""The GM's pages: sign-in by the admin link, encounters from an example, an uploaded file
or combatants typed in the page, with the CLI's own error messages."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from fracas.errors import InputError
from fracas.registry.scenarios import scenario_from_mapping
from fracas.web.app import create_app


@pytest.fixture
def gm_browser(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url)) as http:
        r = http.post("/start")
        assert r.status_code == 200 and "admin-link" in r.text
        yield http


def test_the_admin_link_signs_a_new_browser_in(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as first:
        page = first.post("/start").text
        link = page.split('id="admin-link">')[1].split("<")[0]
        path = link.split("testserver", 1)[1]
    with TestClient(create_app(sqlite_url)) as second:
        assert second.get("/gm").status_code == 401
        r = second.get(path, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/gm"
        assert second.get("/gm").status_code == 200
        assert second.get("/gm/not-a-key").status_code == 401


def test_create_from_an_example_an_upload_and_typed_combatants(gm_browser: TestClient
                                                               ) -> None:
    http = gm_browser
    r = http.post("/gm/encounters", data={"source": "example",
                                          "example": "zamani/duel-fight.yaml",
                                          "auto": "hill"})
    assert r.status_code == 200 and "Sword against spear" in r.text  # followed to /e/<id>
    with open("examples/contest/duel-fight.yaml", "rb") as f:
        r = http.post("/gm/encounters", data={"source": "file", "title": "Uploaded"},
                      files={"file": ("duel.yaml", f, "application/x-yaml")})
    assert r.status_code == 200 and "Uploaded" in r.text
    typed = ("- {id: joe, name: Joe, side: a, body: 5, mind: 5, soul: 5, skills: {melee: 2},\n"
             "   weapons: [{name: knife, kind: melee, damage: 5}]}\n"
             "- {id: tom, name: Tom, side: b, body: 4, mind: 4, soul: 4,\n"
             "   weapons: [{name: club, kind: melee, damage: 4}]}\n")
    r = http.post("/gm/encounters", data={"source": "build", "system": "tristat",
                                          "combatants": typed, "title": "Typed"})
    assert r.status_code == 200, r.text
    assert "Typed" in r.text and "Joe" in r.text and "Tom" in r.text
    listing = http.get("/gm").text
    assert all(t in listing for t in ("Sword against spear", "Uploaded", "Typed"))


def test_a_bad_sheet_shows_the_cli_message_in_the_page(gm_browser: TestClient) -> None:
    typed = "- {id: joe, side: a, body: -2, mind: 5, soul: 5}\n- {id: tom, side: b}\n"
    with pytest.raises(InputError) as cli:
        import yaml

        scenario_from_mapping({"system": "tristat", "combatants": yaml.safe_load(typed)})
    r = gm_browser.post("/gm/encounters", data={"source": "build", "system": "tristat",
                                                "combatants": typed})
    assert r.status_code == 400
    assert html.escape(str(cli.value)) in r.text
    assert "body: -2" in r.text  # the form keeps what was typed
    r = gm_browser.post("/gm/encounters", data={"source": "build", "system": "tristat",
                                                "combatants": "- [unclosed"})
    assert r.status_code == 400 and "not valid YAML" in r.text


@pytest.mark.parametrize("example", ["genesys/duel-fight.yaml", "tristat/duel-fight.yaml",
                                     "zamani/duel-fight.yaml", "contest/duel-fight.yaml",
                                     "c22/duel-fight.yaml"])
def test_the_gm_page_shows_state_and_sheet_in_the_tables_words(gm_browser: TestClient,
                                                               example: str) -> None:
    """The combatants' state and sheet on the GM's page: labels from the data pack and
    values in words (yes, no, none), never a field's code name or Python's None/True."""
    r = gm_browser.post("/gm/encounters", data={"source": "example", "example": example})
    assert r.status_code == 200
    text = re.sub(r"<(script|style|textarea).*?</\1>", " ", r.text, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    sheet = text.split("sheet", 1)[1]
    assert "state" in text and sheet.strip()
    assert not re.findall(r"\b(None|True|False)\b", text)
    assert not re.findall(r"\b[a-z]+_[a-z_]+\b", text), text
