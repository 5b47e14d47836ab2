"""Authorization: keys, roles, hidden combatants and hidden numbers, through the API and the
page; no secret in an address a player sees."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from fracas.web.app import create_app
from tests.web.helpers import Client, answer_for, invite, new_encounter, new_gm

ALLEY = "tristat/alley-fight.yaml"


@pytest.fixture
def http(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url)) as client:
        yield client


@pytest.fixture
def alley(http: TestClient) -> tuple[str, Client, Client]:
    gm = new_gm(http)
    eid = new_encounter(gm, ALLEY, people=["joe", "ada"])["id"]
    return eid, gm, invite(gm, eid, "Jo", ["joe"])


def test_requests_without_a_valid_key_get_401_and_other_keys_403(
        http: TestClient, alley: tuple[str, Client, Client]) -> None:
    eid, _, jo = alley
    anon = Client(http, "")
    anon.headers = {}
    for r in (anon.get(f"/api/encounters/{eid}"), anon.get("/api/encounters"),
              anon.decide(eid, 1, {"option": "0"}), anon.get(f"/api/encounters/{eid}/stream"),
              anon.post("/api/encounters", {"example": ALLEY})):
        assert r.status_code == 401, r.text
        assert "key" in r.json()["error"]
    forged = Client(http, "not-a-real-key")
    assert forged.get(f"/api/encounters/{eid}").status_code == 401
    assert forged.get(f"/api/encounters/{eid}/stream").status_code == 401
    # a key for another encounter opens nothing here
    other_gm = new_gm(http)
    other = new_encounter(other_gm, ALLEY, people=["joe"])["id"]
    stranger = invite(other_gm, other, "S", ["joe"])
    assert stranger.get(f"/api/encounters/{eid}").status_code == 403
    assert stranger.decide(eid, 1, {"option": "0"}).status_code == 403
    assert jo.get(f"/api/encounters/{other}").status_code == 403
    assert other_gm.get(f"/api/encounters/{eid}").status_code == 403
    assert http.get(f"/e/{eid}").status_code == 401  # the page too


def _player_texts(http: TestClient, eid: str, player: Client) -> list[str]:
    """Everything a player can read: the API view, the page and its panel."""
    return [player.get(f"/api/encounters/{eid}").text,
            http.get(f"/e/{eid}", headers=player.headers).text,
            http.get(f"/e/{eid}/panel", headers=player.headers).text]


def test_hidden_combatants_are_nowhere_until_revealed(
        http: TestClient, alley: tuple[str, Client, Client]) -> None:
    eid, gm, jo = alley
    r = gm.put(f"/api/encounters/{eid}/settings", {"others": "bar", "hidden": ["thrall"]})
    assert r.status_code == 200, r.text
    # play on until the hidden thrall has acted and Joe is asked something
    for _ in range(80):
        view = gm.view(eid)
        acted = any("thrall" in e["text"] for e in view["log"][8:])
        if view["over"] or (acted and view["pending"]["who"] == "joe"):
            break
        gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
    assert acted and view["pending"]["who"] == "joe"
    assert jo.view(eid)["pending"]["mine"]
    for text in _player_texts(http, eid, jo):
        assert "thrall" not in text.lower()
    assert any(c["id"] == "thrall" and c["hidden"] for c in gm.view(eid)["combatants"])
    gm.put(f"/api/encounters/{eid}/settings", {"others": "bar", "hidden": []})
    assert "thrall" in [c["id"] for c in jo.view(eid)["combatants"]]


def _numbers_of_others(view: dict[str, object], side: str | None = None) -> list[str]:
    """The numbers shown of the combatants not the viewer's (``side``: only those of it)."""
    return [k for c in view["combatants"] if not c["mine"]  # type: ignore[union-attr]
            if side is None or c["side"] == side
            for k in ("health", "state", "sheet", "bar") if k in c]


def test_visibility_of_other_combatants_follows_the_gm_setting(
        http: TestClient, alley: tuple[str, Client, Client]) -> None:
    eid, gm, jo = alley
    for _ in range(4):  # some damage, so the log has health changes
        view = gm.view(eid)
        gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
    expected = {"exact": {"health", "bar"}, "bar": {"bar"}, "status": set(), "hidden": set()}
    for mode, keys in expected.items():  # the enemies (others) and Joe's ally Ada (allies)
        settings = {"others": mode, "allies": mode}
        assert gm.put(f"/api/encounters/{eid}/settings", settings).status_code == 200
        view = jo.view(eid)
        assert set(_numbers_of_others(view)) == keys, mode
        mine = next(c for c in view["combatants"] if c["id"] == "joe")
        assert {"health", "state", "sheet"} <= set(mine)  # one's own sheet in full
        others = [c for c in view["combatants"] if not c["mine"]]
        assert all(("status" in c) == (mode != "hidden") for c in others)
        if mode != "exact":
            changed = [e for e in view["log"] if e["type"] == "Changed"]
            assert all(e["text"].startswith(("joe:", "Joe:")) for e in changed), changed
            panel = http.get(f"/e/{eid}/panel", headers=jo.headers).text
            vampire = re.search(r'id="c-vampire".*?</div>\s*</div>', panel, re.S)
            assert vampire is not None and "numbers" not in vampire.group(0)
        if mode != "exact":  # the enemies as the GM set them, the ally as the table default
            gm.put(f"/api/encounters/{eid}/settings", {"others": mode, "allies": "exact"})
            view = jo.view(eid)
            assert set(_numbers_of_others(view, "undead")) == keys, mode
            assert set(_numbers_of_others(view, "hunters")) == {"health", "bar"}, mode


def test_no_secret_in_what_a_player_sees(http: TestClient,
                                         alley: tuple[str, Client, Client]) -> None:
    eid, gm, jo = alley
    al = invite(gm, eid, "Al", ["ada"])
    gm_key = gm.headers["Authorization"][7:]
    secrets = {gm_key, al.headers["Authorization"][7:]}
    for text in _player_texts(http, eid, jo):
        for secret in secrets:
            assert secret not in text
    # the invite link sets an HttpOnly cookie and leaves the key out of the address
    jo_key = jo.headers["Authorization"][7:]
    r = http.get(f"/join/{jo_key}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/e/{eid}"
    assert "httponly" in r.headers["set-cookie"].lower()
    page = http.get(r.headers["location"])
    assert page.status_code == 200 and jo_key not in page.text and gm_key not in page.text
    # the GM's own page lists the invites, but never the GM key
    gm_page = http.get(f"/e/{eid}", headers=gm.headers).text
    assert jo_key in gm_page and gm_key not in gm_page
    assert gm_key not in json.dumps(gm.view(eid))


def test_a_player_page_shows_their_own_sheet_and_no_other(
        http: TestClient, alley: tuple[str, Client, Client]) -> None:
    eid, gm, jo = alley
    gm.put(f"/api/encounters/{eid}/settings", {"others": "exact"})
    panel = http.get(f"/e/{eid}/panel", headers=jo.headers).text
    sheets = re.findall(r'id="c-(\w+)".*?(?=id="c-|</section>)', panel, re.S)
    with_sheet = {cid for cid in sheets
                  if 'class="sheet"' in panel.split(f'id="c-{cid}"', 1)[1].split('id="c-', 1)[0]}
    assert with_sheet == {"joe"}
    gm_panel = http.get(f"/e/{eid}/panel", headers=gm.headers).text
    assert gm_panel.count('class="sheet"') == 4
