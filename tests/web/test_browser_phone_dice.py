"""The phone's sticky "Your turn" banner never covers the dice buttons it asks for (issue
34, noticed after the GMs' trial), in Debian's headless Chromium (Playwright) at a phone's
390 × 844, on a real server: with the page scrolled down to the log, whatever brings the
dice into view (the browser scrolling to them, the dice box focused) leaves the box and
both buttons under nobody's banner (the browser's own hit-testing: elementFromPoint), and
a tap on "Roll for me" without force rolls."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.helpers import phone_context
from tests.web.test_browser import create_as_gm, invite_player, version
from tests.web.test_browser_desk import DESK, gm_api
from tests.web.test_browser_gm import moved

#: the dice form's parts a player touches
PARTS = ("#dice-input", "#enter-dice", "#pending button.roll")

FREE = """sel => { const e = document.querySelector(sel); const b = e.getBoundingClientRect();
  const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  return {top: b.top, bottom: b.bottom, free: hit === e || e.contains(hit),
          hit: hit ? (hit.id || hit.className || hit.tagName) : null}; }"""


def _free(page: Page) -> dict[str, dict[str, object]]:
    """Each part: where it is in the viewport and whether a tap at its centre reaches it."""
    return {sel: page.evaluate(FREE, sel) for sel in PARTS}


def _to_the_log(page: Page) -> None:
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")


def test_the_your_turn_banner_never_covers_the_dice(browser: Browser, server: ServerProcess,
                                                    tmp_path: Path) -> None:
    desk = browser.new_context(viewport=DESK)
    phone = phone_context(browser)
    try:
        gm = desk.new_page()
        create_as_gm(gm, server, "tristat/duel-fight.yaml", "fists", roll_all=False, seed=3)
        link = invite_player(gm, "Pat", "rin")
        api, eid = gm_api(gm, server), re.sub(r".*/e/", "", gm.url)
        for _ in range(300):  # everybody answers until the log is long and Rin rolls
            v = api.view(eid)
            assert not v["over"], "Rin was never asked her dice with a long log"
            if v["pending"]["who"] == "rin" and v["pending"]["kind"] == "dice" and len(
                    v["log"]) > 12:
                break
            d = v["pending"]["decision"]
            r = api.decide(eid, v["version"], {"option": d["options"][0]["id"]}
                           if d["options"] else {"roll": True})
            assert r.status_code == 200, r.text
        player = phone.new_page()
        player.goto(link)
        player.wait_for_selector("#your-turn")
        player.wait_for_selector("#dice-input")
        assert player.evaluate("document.documentElement.scrollHeight") > 844  # it scrolls
        _to_the_log(player)
        banner = player.locator("#your-turn").bounding_box()
        assert banner is not None and banner["y"] == 0  # it followed the page down
        # the browser brings the dice buttons into view (as a click, a keyboard does)
        player.locator(".dice-buttons").scroll_into_view_if_needed()
        parts = _free(player)
        assert all(p["free"] for p in parts.values()), parts
        player.screenshot(path=str(tmp_path / "phone-dice-in-view.png"))
        # brought to the very top of the screen (as a link to them or a keyboard's "next"
        # does): they stop below the banner, which stays stuck at the top
        _to_the_log(player)
        player.evaluate("document.querySelector('.dice-buttons').scrollIntoView("
                        "{block: 'start'})")
        parts = _free(player)
        assert all(p["free"] for p in parts.values()), parts
        stuck = player.locator("#your-turn").bounding_box()
        assert stuck is not None and stuck["y"] == 0 and player.evaluate("scrollY") > 0
        player.screenshot(path=str(tmp_path / "phone-dice-at-top.png"))
        # the dice box focused from down at the log (the panel redrawn keeps the focus)
        _to_the_log(player)
        player.focus("#dice-input")
        parts = _free(player)
        assert all(p["free"] for p in parts.values()), parts
        # a tap from down at the log, without force: the browser's hit test lets it in
        _to_the_log(player)
        before = version(player)
        player.locator("#pending button.roll").tap(timeout=10000)
        moved(player, before)
        assert api.view(eid)["pending"]["decision"]["prompt"] != v["pending"]["decision"][
            "prompt"] or api.view(eid)["version"] > v["version"]
        player.screenshot(path=str(tmp_path / "phone-after-roll.png"))
        api.http.close()
    finally:
        desk.close()
        phone.close()
