"""Who's winning on the GM's desk, in Debian's headless Chromium (Playwright): the panel
shows each side's chance (a first estimate, then the exact figure of the duel), moves as
the fight moves, answers a what-if without changing the fight, and a player sees it only
once the GM allows it and shows every health exactly."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.test_browser import version
from tests.web.test_browser_gm import click, moved


def exact_figure(page: Page) -> str:
    """The panel's text once it shows the exact figure of the current version."""
    page.wait_for_function(
        "() => { const f = document.querySelector('#winning-figure');"
        " return f && /exact \\(/.test(f.textContent) && !f.classList.contains('stale'); }",
        timeout=240_000)
    return page.locator("#winning-figure").inner_text()


def chances(text: str) -> dict[str, str]:
    return dict(re.findall(r"(blades|fists)\s+([\d.]+%)", text))


def test_the_desk_shows_who_is_winning(browser: Browser, server: ServerProcess) -> None:
    desk = browser.new_context(viewport={"width": 1280, "height": 1000})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        gm = desk.new_page()
        gm.goto(server.url + "/")
        gm.click("#start")
        gm.click("#to-encounters")
        gm.select_option("#example", "tristat/duel-fight.yaml")
        gm.click("#create")
        gm.wait_for_url(re.compile(r".*/e/\w+$"))
        gm.wait_for_selector("#winning h2")
        first = exact_figure(gm)
        assert "Rounds still to begin" in first and "Played by: Rin: aggressive" in first
        start = chances(first)
        assert set(start) == {"blades", "fists"} and start["blades"] == "32.7%"
        # the fight moves: the GM answers for both a few times; the figure follows
        for _ in range(12):
            click(gm, "#pending button.option")
        later = exact_figure(gm)
        assert chances(later) != start and "round" in later
        # what if Gorr were down to 2 health: the chance changes, the fight does not
        before, order = version(gm), gm.locator("#combatants").inner_text()
        gm.click("#what-if-box summary")
        gm.select_option("#what-if select[name=kind]", "values")
        gm.select_option("#what-if select[name=combatant]", "gorr")
        gm.fill("#what-if input[name=field]", "health")
        gm.fill("#what-if input[name=value]", "2")
        gm.click("#what-if-go")
        gm.wait_for_function("() => /Gorr at health 2/.test("
                             "document.querySelector('#what-if-figure').textContent)",
                             timeout=120_000)
        said = gm.locator("#what-if-figure").inner_text()
        assert float(chances(said)["blades"].rstrip("%")) > 80
        assert version(gm) == before and gm.locator("#combatants").inner_text() == order
        # a player: nothing until the GM allows it and shows every health exactly
        gm.fill("#invite input[name=name]", "Pat")
        gm.check("#invite input[value=rin]")
        before = version(gm)
        gm.click("#invite button[type=submit]")
        gm.wait_for_selector("#players button.copy")
        link = gm.locator("#players button.copy").get_attribute("data-copy") or ""
        player = phone.new_page()
        player.goto(link)
        player.wait_for_selector("#panel .panel")
        assert player.locator("#winning").count() == 0
        before = version(gm)
        gm.check("#winning-players")
        moved(gm, before)
        gm.select_option("#settings select[name=others]", "exact")
        before = version(gm)
        gm.click("#settings button[type=submit]")
        moved(gm, before)
        player.reload()
        seen = exact_figure(player)
        assert chances(seen) == chances(later)
        assert player.locator("#what-if").count() == 0  # the GM's alone
    finally:
        desk.close()
        phone.close()
