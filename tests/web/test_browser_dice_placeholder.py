"""The dice box's example fits the roll asked (issue 34), on the GM desk in Debian's
headless Chromium (Playwright) against the real server: a d20 asked as one value (the
next owner's die may follow it) shows one example value, never "3 5" under a label that
says 1 value; a roll of two values shows two; the tie's roll-off of two d20s shows two,
each within what the die can show."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.helpers import WAIT_MS, Client
from tests.web.test_browser import create_as_gm
from tests.web.test_browser_table import DESK


def _form(gm: Page) -> tuple[str, str]:
    """The dice form's label and its input's example."""
    gm.wait_for_selector("#dice-input")
    return (gm.locator("form.dice label").inner_text(),
            gm.locator("#dice-input").get_attribute("placeholder") or "")


def _fits(label: str, placeholder: str) -> None:
    count = re.search(r"\((\d+) values?\)", label)
    top = re.search(r"each (\d+) to (\d+)", label)
    assert count and top, label
    shown = placeholder.removeprefix("e.g. ").split()
    assert len(shown) == int(count[1]), (label, placeholder)
    assert all(int(top[1]) <= int(v) <= int(top[2]) for v in shown), (label, placeholder)


def test_the_dice_example_has_the_count_the_label_says(browser: Browser,
                                                        server: ServerProcess) -> None:
    desk = browser.new_context(viewport=DESK)
    try:
        gm = desk.new_page()
        # the GM types every die, the GM side's too (the form's choice): a tie is theirs
        link = create_as_gm(gm, server, "contest/duel-fight.yaml", "", roll_all=False, seed=1,
                            gm_dice="typed")
        label, placeholder = _form(gm)
        # Rosa's d20, Grub's after it on the same line if the GM likes: one value asked
        assert "d20 (1 value)" in label and gm.locator("#dice-then").count() == 1
        assert placeholder == "e.g. 3"
        _fits(label, placeholder)
        eid = gm.url.rsplit("/", 1)[1]
        with httpx.Client(base_url=server.url, timeout=60) as http:
            api = Client(http, link.rsplit("/", 1)[1])
            view = api.view(eid)
            for value in (7, 7):  # both 7: a tie, and the roll-off is asked as one roll
                r = api.decide(eid, view["version"], {"dice": [value]})
                assert r.status_code == 200, r.text
                view = r.json()
        assert "roll-off" in view["pending"]["decision"]["prompt"], view["pending"]
        gm.wait_for_function("v => +document.querySelector('#tracker').dataset.version >= v",
                             arg=view["version"], timeout=WAIT_MS)
        label, placeholder = _form(gm)
        assert "d20 each (2 values)" in label, label
        assert placeholder == "e.g. 3 5"
        _fits(label, placeholder)
    finally:
        desk.close()


def test_a_small_die_s_example_stays_within_its_faces(browser: Browser,
                                                      server: ServerProcess) -> None:
    """Tri-Stat's 2d6 initiative: two values, each 1 to 6."""
    desk = browser.new_context(viewport=DESK)
    try:
        gm = desk.new_page()
        create_as_gm(gm, server, "tristat/duel-fight.yaml", "", roll_all=False, seed=1)
        label, placeholder = _form(gm)
        assert "2d6 (2 values)" in label, label
        _fits(label, placeholder)
    finally:
        desk.close()
