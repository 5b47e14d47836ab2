"""Who rolls which die, on the page (issue 34, item 1), in Debian's headless Chromium
(Playwright): the new-encounter form asks who rolls the dice of the combatants the GM runs
(fracas, the default, or the GM typing them); the desk changes it for that side and per
combatant; and each roll fracas makes is in the desk's log (and the player's, for a
combatant the player may see) as it falls, before the turn's narration tells it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.helpers import WAIT_MS, Client, phone_context
from tests.web.test_browser import invite_player, version


def _new_gm(gm: Page, server: ServerProcess) -> str:
    """A new GM on the page: the admin link; the page is at the GM's encounters."""
    gm.goto(server.url + "/")
    gm.click("#start")
    link = gm.locator("#admin-link").inner_text()
    gm.click("#to-encounters")
    return link


def _create(gm: Page, roller: str | None) -> str:
    """The Tri-Stat duel from the form (``roller``: the choice made, None: as offered)."""
    gm.select_option("#example", "tristat/duel-fight.yaml")
    gm.fill("input[name=seed]", "5")
    if roller is not None:
        gm.check(f"#gm-dice input[value={roller}]")
    gm.click("#create")
    gm.wait_for_url(re.compile(r".*/e/\w+$"))
    return gm.url.rsplit("/", 1)[1]


def _changed(page: Page, act: Any) -> None:
    before = version(page)
    act()
    page.wait_for_function("v => +document.querySelector('#tracker').dataset.version > v",
                           arg=before, timeout=WAIT_MS)


def test_the_form_asks_who_rolls_and_the_desk_changes_it(browser: Browser,
                                                         server: ServerProcess,
                                                         tmp_path: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        gm = ctx.new_page()
        admin = _new_gm(gm, server)
        form = gm.locator("#gm-dice")
        assert "The dice of the combatants you run" in form.inner_text()
        assert "fracas rolls them and says what it rolled" in form.inner_text()
        assert gm.locator("#gm-dice input[value=fracas]").is_checked()  # the default
        gm.screenshot(path=str(tmp_path / "form.png"), full_page=True)
        eid = _create(gm, "typed")
        api = Client(httpx.Client(base_url=server.url, timeout=60), admin.rsplit("/", 1)[1])
        view = api.view(eid)
        assert view["gm"]["dice"] == "typed"
        assert gm.locator("#gm-dice").input_value() == "typed"  # the desk's Setup says so
        # the desk hands the side's dice to fracas, then takes back Gorr's alone
        _changed(gm, lambda: gm.select_option("#gm-dice", "fracas"))
        assert api.view(eid)["gm"]["dice"] == "fracas"
        assert gm.locator("select[data-dice=gorr]").input_value() == "fracas"
        _changed(gm, lambda: gm.select_option("select[data-dice=gorr]", "typed"))
        view = api.view(eid)
        assert view["gm"]["rollers"] == {"rin": "fracas", "gorr": "typed"}, view["gm"]
        log = gm.locator("#log").inner_text()
        assert "fracas rolls the GM side's dice from now on" in log
        assert "Gorr's dice are typed at the table from now on" in log
        assert gm.locator("select[data-dice=gorr] option:checked").inner_text() == (
            "dice: typed")
        gm.screenshot(path=str(tmp_path / "desk-dice.png"), full_page=True)
        api.http.close()
    finally:
        ctx.close()


def test_the_desk_and_the_phone_show_fracass_roll_as_it_falls(browser: Browser,
                                                              server: ServerProcess,
                                                              tmp_path: Path) -> None:
    desk = browser.new_context(viewport={"width": 1366, "height": 900})
    phone = phone_context(browser)
    try:
        gm = desk.new_page()
        admin = _new_gm(gm, server)
        eid = _create(gm, None)  # the defaults: fracas rolls Gorr's dice
        player = phone.new_page()
        player.goto(invite_player(gm, "Pat", "rin"))
        api = Client(httpx.Client(base_url=server.url, timeout=60), admin.rsplit("/", 1)[1])
        for _ in range(60):  # whoever is asked takes the first option, or rolls
            view = api.view(eid)
            prompt = view["pending"]["decision"]["prompt"]
            for page in (gm, player):
                page.wait_for_function(
                    "v => +document.querySelector('#tracker').dataset.version >= v",
                    arg=view["version"], timeout=WAIT_MS)
            if view["pending"]["who"] == "rin" and "defence" in prompt:
                break
            assert view["pending"]["who"] == "rin" or view["pending"]["decision"][
                "kind"] != "dice", prompt  # the GM is never asked Gorr's dice
            page = player if player.locator("#pending button.option").count() else gm
            _changed(page, lambda p=page: p.locator("#pending button.option").first.click())
        else:
            raise AssertionError("Rin's defence was never asked")
        # Pat's defence roll waits: Gorr's attack, which fracas rolled, is told already
        line = gm.locator("#log li.ev-FracasRolled")
        assert line.count() == 1
        said = line.inner_text()
        assert re.fullmatch(r"fracas rolls Gorr's attack: 2d6 → ([2-9]|1[0-2])", said), said
        assert player.locator("#log li.ev-FracasRolled").inner_text() == said
        gm.screenshot(path=str(tmp_path / "desk-fracas-rolls.png"), full_page=True)
        # the whole phone page: the log element is redrawn when the stream brings news
        player.screenshot(path=str(tmp_path / "phone-fracas-rolls.png"), full_page=True)
        # Pat rolls: the turn's narration tells Gorr's roll, the line as it fell gives way
        rolled = said.rsplit("→ ", 1)[1]
        _changed(player, lambda: player.locator("#pending button.option").first.click())
        gm.wait_for_function("v => +document.querySelector('#tracker').dataset.version >= v",
                             arg=version(player), timeout=WAIT_MS)
        assert gm.locator("#log li.ev-FracasRolled").count() == 0
        assert f"Gorr rolls 2d6: {rolled}" in gm.locator("#log").inner_text()
        api.http.close()
    finally:
        desk.close()
        phone.close()
