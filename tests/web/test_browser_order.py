"""The GM desk's turn order in Debian's headless Chromium (Playwright): the ↑ and ↓ beside
a combatant still to act this round move their turn before the one above or after the one
below, as the rows and the log then show; "Hold this turn" passes the acting combatant's
turn after the next one (issue 34, item 6)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.test_browser import create_as_gm, version
from tests.web.test_browser_gm import moved


def click(page: Page, selector: str) -> None:
    before = version(page)
    page.locator(selector).first.click()
    moved(page, before)


def prompt(page: Page) -> str:
    return page.locator("#prompt").inner_text()


def test_up_and_down_move_a_turn_on_the_desk(browser: Browser, server: ServerProcess
                                             ) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        gm = context.new_page()
        create_as_gm(gm, server, "tristat/warehouse-fight.yaml", "", roll_all=True, seed=2)
        # the first turn: the order is set in it; the second turn can be moved about
        actions = 0
        for _ in range(60):
            if prompt(gm).endswith("'s action"):
                actions += 1
                if actions == 2:
                    break
            click(gm, "#pending button.option")
        acting = prompt(gm).removesuffix("'s action")
        rows = gm.locator("button.move")
        assert rows.count() > 2
        # the last one still to act: ↑ until it comes first, before the acting combatant
        downs = gm.locator("button.move[data-where=after]")
        last = gm.locator("button.move[data-where=before]").last.get_attribute("data-move")
        assert last is not None and downs.count() > 1
        for _ in range(10):
            up = gm.locator(f"button.move[data-move={last}][data-where=before]")
            if not up.count():
                break
            before = version(gm)
            up.click()
            moved(gm, before)
        name = gm.locator(f"#c-{last} .name").inner_text().removeprefix("▶ ")
        assert prompt(gm) == f"{name}'s action"
        assert f"{name} now acts before {acting} (from now on)" in gm.locator(
            "#log").inner_text()
        # ↓ on it: back after the acting combatant, who is asked again
        click(gm, f"button.move[data-move={last}][data-where=after]")
        assert prompt(gm) == f"{acting}'s action"
        gm.screenshot(path="/tmp/fracas-order.png")  # looked at while writing this test
        # Hold this turn: the acting combatant's turn passes after the next one
        click(gm, "#hold")
        assert prompt(gm) != f"{acting}'s action"
        assert f"{acting} holds the turn until after" in gm.locator("#log").inner_text()
    finally:
        context.close()
