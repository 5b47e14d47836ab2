"""The GM's desk at 1366×900 and a player's phone at 390×844, in Debian's headless Chromium
(Playwright), on a real server (issue 36, items 1, 2 and 6).

The desk: the toolbar (undo, redo, GM-side initiative, let fracas decide, end) and the
current decision in the first screen, the toolbar still there when the page is scrolled;
one compact row per combatant; Genesys slots showing each candidate's health; setup in a
column of its own. The phone: number dice open a number keypad; a refused roll is one
line beside the box, the decision and the box still above the fold, and it clears on the
next try; a sticky "your turn"; the log cut to its last lines; the end-of-fight summary.

The tests write the screenshots of docs/serve.md and docs/play.md into docs/img/.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.helpers import Client
from tests.web.test_browser import create_as_gm, invite_player, version
from tests.web.test_browser_gm import PHONE, moved, settled

DESK = {"width": 1366, "height": 900}
IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
ROW_MAX = 60  # px: one combatant's row on the desk


def shot(page: Page, name: str, full: bool = False) -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMG / name), full_page=full)


def box(page: Page, selector: str) -> dict[str, float]:
    """The element's box, once it is shown (the panel is redrawn when the encounter or its
    who's-winning figure changes: the element is then briefly detached)."""
    for _ in range(5):
        element = page.locator(selector).first
        element.wait_for(state="visible")
        b = element.bounding_box()
        if b is not None:
            return b
    raise AssertionError(f"{selector} has no box")


def in_first_screen(page: Page, selector: str) -> bool:
    """The element is wholly inside the viewport as it is scrolled now."""
    b = box(page, selector)
    height = page.viewport_size["height"] if page.viewport_size else 0
    return b["y"] >= 0 and b["y"] + min(b["height"], 120) <= height


def gm_api(page: Page, server: ServerProcess) -> Client:
    """The GM's key, read from the browser's cookie, for the JSON API."""
    key = next(c["value"] for c in page.context.cookies() if c["name"] == "fracas_gm")
    return Client(httpx.Client(base_url=server.url, timeout=60), key)


def test_the_desk_at_1366(browser: Browser, server: ServerProcess) -> None:
    """Genesys three against three: a new encounter chosen from the examples grouped by
    system with a line each, a scenario refused with its errors beside the form; then the
    desk."""
    desk = browser.new_context(viewport=DESK)
    try:
        gm = desk.new_page()
        gm.goto(server.url + "/")
        gm.click("#start")
        gm.click("#to-encounters")
        groups = gm.locator("#example optgroup").evaluate_all(
            "gs => gs.map(g => g.label)")
        assert groups == sorted(groups) and {"genesys", "tristat", "zamani"} <= set(groups)
        genesys = gm.locator("#example optgroup[label=genesys] option").evaluate_all(
            "os => os.map(o => o.textContent)")
        assert any(t.startswith("Dockside brawl, three against three — ") for t in genesys)
        gm.check("input[name=source][value=build]")
        gm.select_option("select[name=system]", "genesys")
        gm.fill("textarea[name=combatants]", "- {id: a, name: A, side: x}")
        gm.click("#create")
        gm.wait_for_selector(".form-errors #error")
        form, errors = box(gm, "#new-encounter"), box(gm, ".form-errors")
        assert errors["x"] > form["x"] + form["width"] - 5  # beside the form
        assert abs(errors["y"] - form["y"]) < 80
        shot(gm, "serve-new.png")

        create_as_gm(gm, server, "genesys/three-vs-three-fight.yaml", "thugs", roll_all=False)
        invite_player(gm, "Ann", "kira")
        gm.wait_for_selector("#pending #prompt")
        settled(gm)
        for sel in ("#toolbar", "#undo", "#redo", "#end-fight", "#auto-turn", "#pending"):
            assert in_first_screen(gm, sel), sel
        # the initiative: fracas rolls the dice of the combatants the GM runs (the form's
        # default), so the GM is never asked one of theirs; Kira's, asked before Ann joined,
        # the GM rolls for her on the desk
        for _ in range(8):
            settled(gm)
            if gm.locator("#order .slot-any").count():
                break
            assert gm.locator("#roll-initiative").count() == 0
            assert "Kira's initiative" in gm.locator("#prompt").inner_text()
            before = version(gm)
            gm.click("#pending button.roll")
            moved(gm, before)
        settled(gm)
        slot = gm.locator("#order .slot-any").first
        assert slot.locator(".numbers").count() == slot.locator(".who").count() >= 2
        # a condition once, with its rounds left
        gm.select_option("#condition select[name=combatant]", "tomas")
        gm.fill("#condition input[name=condition]", "disoriented")
        gm.fill("#condition input[name=rounds]", "2")
        before = version(gm)
        gm.click("#condition button[type=submit]")
        moved(gm, before)
        row = gm.locator("#c-tomas").inner_text()
        assert row.count("disoriented") == 1 and "2 rds" in row, row
        gm.evaluate("window.scrollTo(0, 0)")  # the desk's first screen, as it opens
        shot(gm, "serve-gm.png")
        # scrolled to the foot of the page, the toolbar is still in sight
        gm.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        assert in_first_screen(gm, "#toolbar") and in_first_screen(gm, "#undo")
        gm.evaluate("window.scrollTo(0, 0)")
        # the end of the fight: the summary on the desk
        before = version(gm)
        gm.click("#end-fight")
        moved(gm, before)
        gm.wait_for_selector("#summary")
        assert in_first_screen(gm, "#summary")
        assert gm.locator("#summary tbody tr").count() == 6
        shot(gm, "serve-gm-end.png")
    finally:
        desk.close()


def test_the_phone_at_390(browser: Browser, server: ServerProcess) -> None:
    """Tri-Stat duel, Pat plays Rin on a phone: her initiative dice open a number keypad;
    a roll the dice cannot show is one line beside the box, the prompt and the box still
    in the first screen, and it is gone at the next try; "your turn" stays in sight when
    scrolled; the log shows its last lines; at the end, the summary."""
    desk = browser.new_context(viewport=DESK)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        gm = desk.new_page()
        create_as_gm(gm, server, "tristat/duel-fight.yaml", "fists", roll_all=False,
                     seed=3)  # the dice fracas rolls: Rin lives to act again
        player = phone.new_page()
        player.goto(invite_player(gm, "Pat", "rin"))
        player.wait_for_selector("#dice-input")
        assert player.locator("#dice-input").get_attribute("inputmode") in (
            "numeric", "decimal")
        assert in_first_screen(player, "#your-turn")
        player.fill("#dice-input", "9 9 9")
        player.click("#enter-dice")
        player.wait_for_selector("#dice-error:not([hidden])")
        told = box(player, "#dice-error")
        assert told["height"] < 30, told  # one line
        assert player.locator("#error").is_hidden()
        for sel in ("#prompt", "#dice-input", "#enter-dice", "#dice-error"):
            assert in_first_screen(player, sel), sel
        shot(player, "serve-player-error.png")
        before = version(player)
        player.fill("#dice-input", "3 4")
        player.click("#enter-dice")
        moved(player, before)
        assert player.locator("#dice-error").count() == 0 or player.locator(
            "#dice-error").is_hidden()
        # the fight goes on, each answering, until the log is long and Rin is asked again
        api = gm_api(gm, server)
        eid = re.sub(r".*/e/", "", gm.url)
        for _ in range(200):
            v = api.view(eid)
            if v["over"] or (len(v["log"]) > 12 and v["pending"]["who"] == "rin"
                             and v["pending"]["kind"] == "action"):
                break
            answer = ({"option": v["pending"]["decision"]["options"][0]["id"]}
                      if v["pending"]["decision"]["options"] else {"roll": True})
            who = api if v["pending"]["who"] != "rin" else None
            if who is None:
                player.wait_for_function(
                    "v => +document.querySelector('#tracker').dataset.version >= v",
                    arg=v["version"])
                sel = "#pending button.option" if answer.get("option") else \
                    "#pending button.roll"
                if player.locator("#go").count():
                    sel = "#go"
                before = version(player)
                player.locator(sel).first.click()
                moved(player, before)
            else:
                r = who.decide(eid, v["version"], answer)
                assert r.status_code == 200, r.text
        player.wait_for_function(
            "v => +document.querySelector('#tracker').dataset.version >= v",
            arg=api.view(eid)["version"])
        settled(player)
        player.wait_for_selector("#your-turn")  # the panel of Rin's action drawn
        shown = player.locator("#log li:visible").count()
        assert 1 <= shown <= 6 < player.locator("#log li").count()
        assert in_first_screen(player, "#your-turn") and in_first_screen(player, "#prompt")
        shot(player, "serve-player.png")
        player.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        assert in_first_screen(player, "#your-turn")  # sticky
        player.click("#log-toggle")
        assert player.locator("#log li:visible").count() == player.locator("#log li").count()
        player.evaluate("window.scrollTo(0, 0)")
        # the fight to its end (the GM answers for everybody now): the summary
        for _ in range(2000):
            v = api.view(eid)
            if v["over"]:
                break
            d = v["pending"]["decision"]
            r = api.decide(eid, v["version"], {"option": d["options"][0]["id"]}
                           if d["options"] else {"roll": True})
            assert r.status_code == 200, r.text
        player.wait_for_selector("#summary", timeout=30000)
        headline = player.locator("#summary h2").inner_text()
        assert re.fullmatch(r"(Blades|Fists) win after \d+ rounds?", headline), headline
        down = player.locator("#summary tbody").inner_text()
        assert re.search(r"round \d+ \((Rin|Gorr)'s turn\)", down), down
        names = player.locator("#summary tbody tr td:first-child").all_inner_texts()
        assert names == ["Rin", "Gorr"], names
        assert in_first_screen(player, "#summary")
        shot(player, "serve-player-end.png")
        api.http.close()
    finally:
        desk.close()
        phone.close()
