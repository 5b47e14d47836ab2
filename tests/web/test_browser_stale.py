"""A click on a page that has not caught up yet (someone else acted first), in Debian's
headless Chromium (Playwright): the page says what happened in the table's words and
shows the table as it stands now, without sending the reader to reload; the click
changed nothing, and choosing again on the page as it is now is taken. The API's own
answer stays a 409 naming both versions."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, Page, Route

from fracas.web.testing import ServerProcess
from tests.web.helpers import WAIT_MS, invite, new_gm, open_example
from tests.web.test_browser import version
from tests.web.test_browser_gm import caught_up, moved
from tests.web.test_browser_table import at_the_table, type_dice

SHOWN = """() => {
  const error = document.querySelector('#error');
  return {version: +document.querySelector('#tracker').dataset.version,
          error: error.hidden ? null : error.textContent,
          prompt: (document.querySelector('#prompt') || {}).textContent || '',
          pending: !!document.querySelector('[data-odds-pending]')};
}"""


def _hold(route: Route) -> None:
    """The live channel never answers: this page does not follow the table by itself."""


def _behind(gm: Page) -> Page:
    """A second GM tab on the same encounter that does not follow the live channel."""
    page = gm.context.new_page()
    page.route("**/api/encounters/*/stream", _hold)
    page.goto(gm.url, wait_until="domcontentloaded")
    page.wait_for_selector("#pending button.roll")
    return page


def test_a_stale_click_says_the_table_moved_on_and_shows_it_as_it_stands(
        browser: Browser, server: ServerProcess) -> None:
    # the GM types Grub's dice (the form's choice), so that the table moves on to a roll
    # of the GM's that a stale tab may try to make
    with at_the_table(browser, server, "contest/duel-fight.yaml", "raiders", False,
                      "rosa", gm_dice="typed") as (gm, player):
        player.wait_for_selector("#pending #dice-input")
        stale = _behind(gm)
        assert "Rosa's initiative" in stale.locator("#prompt").inner_text()
        before = version(stale)
        # Pat types Rosa's initiative on the phone: the table moves on to Grub's
        type_dice(player, "17")
        caught_up(gm, player)
        now = version(player)
        assert now > before and version(stale) == before
        assert "Rosa's initiative" in stale.locator("#prompt").inner_text()

        # the GM's tab that has not caught up asks fracas to roll Rosa's die
        stale.locator("#pending button.roll").click()
        stale.wait_for_function(
            "v => +document.querySelector('#tracker').dataset.version >= v && "
            "!document.querySelector('#error').hidden", arg=now, timeout=WAIT_MS)
        seen: dict[str, Any] = stale.evaluate(SHOWN)
        assert seen["error"] == ("Someone acted first: the table has moved on to Grub the "
                                 "Brute's initiative — here it is as it stands now; choose "
                                 "again."), seen
        assert "reload" not in seen["error"]
        assert seen["version"] == now
        assert seen["prompt"].startswith("Grub the Brute's initiative")
        assert stale.locator("#pending button.roll").count() == 1

        # the stale click changed nothing: Grub's die is still the one asked
        data = stale.request.get(f"{server.url}/api/encounters/{gm.url.rsplit('/', 1)[1]}"
                                 ).json()
        assert data["version"] == now and data["pending"]["who"] == "grub"

        # choosing again on the page as it stands is taken, and the message goes; Rosa's
        # die is Pat's 17 (the stale roll of it was not made)
        stale.locator("#pending button.roll").click()
        moved(stale, now)
        stale.wait_for_selector("#error", state="hidden")
        # the panel is redrawn as the who's-winning figure arrives: read the log once drawn
        stale.wait_for_function("() => (document.querySelector('ol.log') || {}).innerText"
                                " && document.querySelector('ol.log').innerText"
                                ".includes('Grub the Brute rolls d20 for initiative')")
        log = stale.locator("ol.log").inner_text()
        assert "Rosa rolls d20 for initiative: 17 (+ 0 (initiative) = 17)" in log
        assert "Grub the Brute rolls d20 for initiative: " in log


def test_the_apis_stale_answer_names_the_versions_and_what_is_asked_now(
        server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm = new_gm(http)
        eid = open_example(gm, "contest/duel-fight.yaml", 3, gm_dice="typed")  # Grub's: GM's
        pat = invite(gm, eid, "Pat", ["rosa"])
        old = gm.view(eid)["version"]
        assert pat.decide(eid, old, {"dice": [17]}).status_code == 200
        new = gm.view(eid)["version"]
        for who, moved_on in ((gm, "Grub the Brute's initiative"),
                              (pat, "Grub the Brute's roll")):
            r = who.decide(eid, old, {"roll": True})
            assert r.status_code == 409, r.text
            assert r.json() == {
                "error": f"the fight has moved on: this was sent for version {old}, it is "
                         f"now at version {new}; reload and try again",
                "version": new, "moved_on": moved_on}
        # Grub hidden from the players: the player is told it is the GM's to answer
        r = gm.put(f"/api/encounters/{eid}/settings", {"others": "bar", "hidden": ["grub"]})
        assert r.status_code == 200, r.text
        now = gm.view(eid)["version"]
        r = pat.decide(eid, old, {"roll": True})
        assert r.status_code == 409 and r.json()["moved_on"] == "the GM's turn to answer"
        assert "Grub" not in r.text
        assert r.json()["version"] == now
