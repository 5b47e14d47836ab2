"""A new GM running a Genesys three-against-three in Debian's headless Chromium (Playwright),
with the server rolling every die: what the GM does by hand between rolls never changes a
roll the table has already seen, and the turn order tells the slot being played."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.test_browser import create_as_gm, version
from tests.web.test_browser_gm import moved, settled

DESK = {"width": 1280, "height": 1000}


def rolls(page: Page) -> list[str]:
    """The log's lines that tell a roll, read in one go."""
    lines: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#log li')].map(li => li.textContent)"
        ".filter(t => / rolls [PADCSB-]+: /.test(t))")
    return lines


def test_a_hand_edit_keeps_the_initiative_the_server_rolled(browser: Browser,
                                                             server: ServerProcess) -> None:
    """The server rolls all six initiatives; the GM then takes 3 wounds off the bruiser
    with '− damage' (and puts a condition on the knife fighter): the six rolls in the log
    are the ones rolled before, not six new ones (the edit was played again in front of
    the round's rolls, which were drawn afresh)."""
    desk = browser.new_context(viewport=DESK)
    try:
        gm = desk.new_page()
        create_as_gm(gm, server, "genesys/three-vs-three-fight.yaml", "heroes", roll_all=True)
        gm.wait_for_selector("#prompt")
        settled(gm)
        before = rolls(gm)
        assert len(before) == 6, before
        order = gm.locator("#order").inner_text()
        v = version(gm)
        gm.fill("#c-bruiser form.quick input[name=amount]", "3")
        gm.click("#c-bruiser button.hurt")
        moved(gm, v)
        assert "Dockside bruiser: wounds 0 → 3" in gm.locator("#log").inner_text()
        assert rolls(gm) == before
        v = version(gm)
        gm.select_option("#condition select[name=combatant]", "knife")
        gm.fill("#condition input[name=condition]", "staggered")
        gm.click("#condition button[type=submit]")
        moved(gm, v)
        assert rolls(gm) == before
        gm.reload()
        gm.wait_for_selector("#prompt")
        assert rolls(gm) == before
        assert gm.locator("#order").inner_text().split("\n")[:4] == order.split("\n")[:4]
    finally:
        desk.close()
