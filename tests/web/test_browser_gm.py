"""The GM's tracker at a glance, in Debian's headless Chromium (Playwright): the GM runs a
fight for the enemy (typing its dice: the form's choice) and a player joins from a phone.
The GM copies the invite (never shown in clear), rolls every GM-side initiative with one
click, lets fracas decide a turn, deals
quick damage, puts a condition with its duration beside a name in the turn order, and
takes a free-form action; the player's phone shows their own character and their decision
above the fold, and nothing of the enemy's numbers.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.helpers import WAIT_MS, phone_context
from tests.web.test_browser import version

PHONE = {"width": 390, "height": 844}



def moved(page: Page, before: int) -> None:
    """Wait until the page shows a version after ``before`` (the click was committed)."""
    page.wait_for_function("v => +document.querySelector('#tracker').dataset.version > v",
                           arg=before, timeout=WAIT_MS)


def caught_up(page: Page, other: Page) -> None:
    page.wait_for_function("v => +document.querySelector('#tracker').dataset.version >= v",
                           arg=version(other), timeout=WAIT_MS)


def click(page: Page, selector: str) -> None:
    before = version(page)
    page.locator(selector).first.click()
    moved(page, before)


def to_gorrs_turn(gm: Page, player: Page, tool: str) -> None:
    """Whoever is asked takes the first option until the GM is asked Gorr's action
    (``tool`` shown)."""
    for _ in range(40):
        caught_up(gm, player)
        if gm.locator(tool).count() and "Gorr" in gm.locator("#prompt").inner_text():
            return
        page = player if player.locator("#pending button.option").count() else gm
        click(page, "#pending button.option")
    raise AssertionError("Gorr's action was not asked")


def settled(page: Page) -> None:
    """Wait until the panel is the last one it will draw for this version: a choice
    shown before its odds is drawn again when they arrive (``data-odds-pending``)."""
    page.wait_for_function("() => { const p = document.querySelector('#tracker .panel');"
                           " return p && !p.dataset.oddsPending; }", timeout=WAIT_MS)


def tops(page: Page, *selectors: str) -> list[tuple[float, float] | None]:
    """The top and height of the first match of each selector, measured in one go in the
    page, so that no redraw falls between two measures."""
    boxes: list[tuple[float, float] | None] = page.evaluate(
        "sels => sels.map(s => { const e = document.querySelector(s); if (!e) return null;"
        " const r = e.getBoundingClientRect(); return [r.top, r.height]; })", list(selectors))
    return boxes


def above_the_fold(box: tuple[float, float] | None) -> bool:
    return box is not None and box[0] >= 0 and box[0] + min(box[1], 60) <= PHONE["height"]


def test_the_gm_runs_the_enemy_and_the_player_sees_their_own(browser: Browser,
                                                              server: ServerProcess) -> None:
    desk = browser.new_context(viewport={"width": 1280, "height": 1000})
    phone = phone_context(browser)
    try:
        gm = desk.new_page()
        gm.goto(server.url + "/")
        gm.click("#start")
        gm.click("#to-encounters")
        gm.select_option("#example", "tristat/duel-fight.yaml")
        # this GM rolls the dice of the side they run on the desk (the form's other choice:
        # by default fracas rolls them), so the desk's one-click initiative is theirs
        gm.check("#gm-dice input[value=typed]")
        gm.click("#create")
        gm.wait_for_url(re.compile(r".*/e/\w+$"))
        # the invite: behind a copy button, never printed
        gm.fill("#invite input[name=name]", "Pat")
        gm.check("#invite input[value=rin]")
        gm.click("#invite button[type=submit]")
        gm.wait_for_selector("#players button.copy")
        link = gm.locator("#players button.copy").get_attribute("data-copy") or ""
        assert "/join/" in link and link not in gm.locator("body").inner_text()
        gm.locator("#players button.copy").click()
        gm.wait_for_function("() => document.querySelector('#players button.copy')"
                             ".textContent === 'Copied'")
        player = phone.new_page()
        player.goto(link)
        # Rin's initiative is the player's to roll; Gorr's is the GM's, all at once (the
        # GM chose to type or roll the GM side's dice on the desk)
        player.wait_for_selector("#pending button.roll")
        assert gm.locator("#roll-initiative").count() == 0
        click(player, "#pending button.roll")
        caught_up(gm, player)
        gm.wait_for_selector("#roll-initiative")
        click(gm, "#roll-initiative")
        assert gm.locator("#round").inner_text() == "round 1"
        # the GM decides for Gorr: fracas decides this turn
        to_gorrs_turn(gm, player, "#auto-turn")
        click(gm, "#auto-turn")
        caught_up(player, gm)
        # the player's phone: their character, then their decision, above the fold
        player.wait_for_selector("#pending #prompt")
        settled(player)
        yours, prompt, option, pending = tops(player, "#yours", "#prompt",
                                              "#pending button.option", "#pending")
        assert above_the_fold(yours) and above_the_fold(prompt) and above_the_fold(option)
        assert yours is not None and pending is not None and yours[0] < pending[0]
        assert player.locator("#c-gorr .numbers").count() == 0  # bar only: no numbers
        assert "takes out" not in player.content()
        # quick damage on Gorr, and a condition for two rounds beside his name
        gm.fill("#c-gorr form.quick input[name=amount]", "5")
        before = version(gm)
        gm.locator("#c-gorr button.hurt").click()
        moved(gm, before)
        assert gm.locator("#c-gorr .numbers").inner_text() == "55/60"
        gm.select_option("#condition select[name=combatant]", "gorr")
        gm.fill("#condition input[name=condition]", "dazed")
        gm.fill("#condition input[name=rounds]", "2")
        before = version(gm)
        gm.click("#condition button[type=submit]")
        moved(gm, before)
        assert "dazed 2 rds" in gm.locator("#c-gorr").inner_text()  # his row on the desk
        caught_up(player, gm)
        assert "dazed 2 rds" in player.locator("#order").inner_text()
        # the fight goes on to the GM's next decision for Gorr: a free-form action
        to_gorrs_turn(gm, player, "#free-action")
        gm.click("#free summary")
        gm.fill("#free-action input[name=description]", "kicks the brazier over")
        gm.fill("#free-action input[name=roll]", "2d6")
        gm.fill("#free-action input[name=target]", "7")
        gm.select_option("#free-action select[name=to]", "rin")
        gm.fill("#free-action input[name=damage]", "2")
        before = version(gm)
        gm.click("#free-action button[type=submit]")
        moved(gm, before)
        log = gm.locator("#log").inner_text()
        assert "Gorr: kicks the brazier over" in log and "Gorr rolls 2d6:" in log
        assert gm.locator("table.roster tr.acting").count() == 1
        caught_up(player, gm)
        assert "kicks the brazier over" in player.locator("#log").inner_text()
        # undo takes the whole free-form action back
        click(gm, "#undo")
        assert "kicks the brazier over" not in gm.locator("#log").inner_text()
    finally:
        desk.close()
        phone.close()
