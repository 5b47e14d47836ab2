"""A contest typed as a table plays it, on the GM's desk in Debian's headless Chromium
(Playwright): the dice box names the die that follows (Grub's dodge after Rosa's attack),
both are typed in the one box, and the roll is in the log before the next is asked, whose
prompt says which roll of three it is and what the roller adds."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.helpers import WAIT_MS
from tests.web.test_browser import create_as_gm, version

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "img"


def _typed(page: Page, values: str) -> None:
    before = version(page)
    page.fill("#dice-input", values)
    page.click("#enter-dice")
    page.wait_for_function("v => +document.querySelector('#tracker').dataset.version > v",
                           arg=before, timeout=WAIT_MS)


def _option(page: Page, label: str) -> None:
    before = version(page)
    page.locator("#pending button.option", has_text=label).first.click()
    page.wait_for_function("v => +document.querySelector('#tracker').dataset.version > v",
                           arg=before, timeout=WAIT_MS)


def test_the_gm_types_both_dice_of_a_contest_roll_in_one_box(browser: Browser,
                                                             server: ServerProcess) -> None:
    desk = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        gm = desk.new_page()
        # this GM types the dice of the side they run (the form's choice): both of a roll
        create_as_gm(gm, server, "contest/duel-fight.yaml", "", False, seed=3,
                     gm_dice="typed")
        # everybody's initiative: Rosa's die, then Grub's, in the one box
        gm.wait_for_selector("#dice-then")
        assert "then Grub the Brute's initiative: d20" in gm.inner_text("#dice-then")
        _typed(gm, "17 2")
        # Rosa attacks Grub with her sword; Grub dodges
        gm.wait_for_selector("#pending button.option")
        _option(gm, "Attack")
        _option(gm, "Dodge")
        gm.wait_for_selector("#dice-then")
        assert gm.inner_text("#prompt") == (
            "Rosa's sword attack on Grub the Brute, roll 1 of 3: d20 + 5 (sword 4, strength 1)")
        assert ("then Grub the Brute's dodge against Rosa, roll 1 of 3: d20 + 1 (dodge 1, "
                "agility 0)") in gm.inner_text("#dice-then")
        _typed(gm, "12 8")
        gm.wait_for_selector("#dice-then")
        assert "roll 2 of 3" in gm.inner_text("#prompt")
        assert ("Rosa 17 > Grub the Brute 9: roll 1 to Rosa (Rosa 1, Grub the Brute 0)"
                in gm.inner_text("#log"))
        SHOTS.mkdir(exist_ok=True)
        gm.screenshot(path=str(SHOTS / "serve-contest-roll.png"), full_page=False)
    finally:
        desk.close()
