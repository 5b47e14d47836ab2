"""Playwright drives Debian's headless Chromium: the GM creates an encounter, a player joins
from a second browser context (a phone-sized one), and both play a whole fight to its end,
each screen following live (no reload). Every system, each with the tracker's default "who
rolls" (issue 34): the player types or taps their own combatant's dice, fracas rolls every
die of the side the GM runs (the GM is never asked for one), and the GM only chooses.
Tri-Stat's player types a roll in once, and its GM sees fracas's roll in the log as it falls.
"""

from __future__ import annotations

import re
import time

import httpx
import pytest
from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.helpers import WAIT_MS, phone_context


def version(page: Page) -> int:
    return int(page.locator("#tracker").get_attribute("data-version") or -1)


def create_as_gm(gm: Page, server: ServerProcess, example: str, side: str,
                 roll_all: bool, seed: int | None = None, gm_dice: str | None = None) -> str:
    """A new GM's encounter from ``example`` (``seed``: the form's optional seed, for a
    test whose dice fracas rolls must not tie with the ones it types; ``gm_dice``: who
    rolls the dice of the combatants the GM runs, as the form asks: ``typed`` for a test
    about the GM typing them, None for the default, fracas)."""
    gm.goto(server.url + "/")
    gm.click("#start")
    link = gm.locator("#admin-link").inner_text()
    assert re.fullmatch(re.escape(server.url) + r"/gm/[\w-]+", link)
    gm.click("#to-encounters")
    gm.select_option("#example", example)
    if seed is not None:
        gm.fill("input[name=seed]", str(seed))
    if roll_all:
        gm.check("input[name=roll_all]")
    if gm_dice is not None:
        gm.check(f"#gm-dice input[value={gm_dice}]")
    gm.click("#create")
    gm.wait_for_url(re.compile(r".*/e/\w+$"))
    return link


def invite_player(gm: Page, name: str, combatant: str) -> str:
    gm.fill("#invite input[name=name]", name)
    gm.check(f"#invite input[value={combatant}]")
    gm.click("#invite button[type=submit]")
    gm.wait_for_selector("#players button.copy")
    link = gm.locator("#players button.copy").first.get_attribute("data-copy") or ""
    assert link and link not in gm.locator("body").inner_text()  # never shown in clear
    return link


def play(gm: Page, player: Page, api: httpx.Client, eid: str, typed_dice: bool,
         chosen: list[str], mine: str = "") -> dict[str, int]:
    """Click through the fight: whoever is asked answers (first option, or the dice; now
    and then an action composed step by step, its label kept in ``chosen``); how many
    answers each screen gave (``gm_dice``: how often the GM was asked a die of a
    combatant other than the player's ``mine``; ``fracas_rolled``: how often the desk's
    log showed a roll fracas made in the turn under way)."""
    clicks = {"gm": 0, "player": 0, "typed": 0, "composed": 0, "gm_dice": 0,
              "fracas_rolled": 0}
    typed = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        current = api.get(f"/api/encounters/{eid}").json()
        for page in (gm, player):  # each screen catches up live, without a reload
            page.wait_for_function(
                "v => +document.querySelector('#tracker').dataset.version >= v",
                arg=current["version"], timeout=WAIT_MS)
        if current["over"]:
            return clicks
        pending = current["pending"] or {}
        if pending.get("kind") == "dice" and pending.get("who") not in (mine, None):
            clicks["gm_dice"] += 1
        if gm.locator("#log li.ev-FracasRolled").count():
            clicks["fracas_rolled"] += 1
        asked = player if player.locator("#pending button.option").count() else gm
        if typed_dice and not typed and asked is player and asked.locator("#dice-input").count():
            label = asked.locator("form.dice label").inner_text()
            if "(2 values)" in label:
                before = version(asked)
                asked.fill("#dice-input", "3, 4")
                asked.click("#enter-dice")
                asked.wait_for_function(  # accepted: the fight moved on
                    "v => +document.querySelector('#tracker').dataset.version > v", arg=before)
                assert asked.locator("#error").is_hidden()
                typed = True
                clicks["player"] += 1
                clicks["typed"] += 1
                continue
        if asked.locator("#compose").count() and not clicks["composed"] % 7:
            # the action step by step: an entry of the first step, then Go with the action
            # composed (its label and odds shown above the next step)
            before = asked.locator("#compose").inner_text()
            asked.locator("#compose button.step-entry:not(.back):not(.more)").last.click()
            asked.wait_for_selector("#compose #back")  # a step taken: it can be taken back
            assert asked.locator("#compose").inner_text() != before
            chosen.append(asked.locator("#composed").inner_text())
            clicks["composed"] += 1
            asked.locator("#go").click()
        else:
            if asked.locator("#compose").count():
                clicks["composed"] += 1
            asked.locator("#pending button.option").first.click()
        clicks["player" if asked is player else "gm"] += 1
        # the click's request is under way: wait until it is committed before looking again
        asked.wait_for_function(
            "v => +document.querySelector('#tracker').dataset.version > v",
            arg=current["version"], timeout=WAIT_MS)
    raise AssertionError("the fight did not end in time")


@pytest.mark.parametrize(("example", "side", "combatant", "types"), [
    ("tristat/duel-fight.yaml", "blades", "rin", True),
    ("genesys/duel-fight.yaml", "port", "red", False),
    ("c22/duel-fight.yaml", "crew", "mara", False),
    ("contest/duel-fight.yaml", "watch", "rosa", False),
    ("zamani/duel-fight.yaml", "river", "kofi", False),
])
def test_gm_and_player_play_a_whole_fight_in_two_browsers(
        browser: Browser, server: ServerProcess, example: str, side: str, combatant: str,
        types: bool) -> None:
    gm_ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    phone = phone_context(browser)
    try:
        gm = gm_ctx.new_page()
        admin = create_as_gm(gm, server, example, side, roll_all=False)  # the defaults
        eid = gm.url.rsplit("/", 1)[1]
        invite = invite_player(gm, "Pat", combatant)
        player = phone.new_page()
        player.goto(invite)
        assert player.url == f"{server.url}/e/{eid}"  # the key is gone from the address
        player.evaluate("window.__loaded_once = true")
        gm.evaluate("window.__loaded_once = true")
        gm_key = admin.rsplit("/", 1)[1]
        assert gm_key not in player.content()
        api = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {gm_key}"})
        if types:
            # a hand edit in the GM's form reaches the player's screen live
            enemy = next(c for c in api.get(f"/api/encounters/{eid}").json()["combatants"]
                         if c["id"] != combatant)
            gm.select_option("#adjust select[name=combatant]", enemy["id"])
            gm.fill("#adjust input[name=field]", "health")
            gm.fill("#adjust input[name=value]", "1")
            v = version(gm)
            gm.click("#adjust button[type=submit]")
            gm.wait_for_function(
                "v => +document.querySelector('#tracker').dataset.version > v", arg=v)
            assert gm.locator(f"#c-{enemy['id']} .numbers").inner_text().startswith("1/")
            player.wait_for_function(
                "id => { const f = document.querySelector('#c-' + id + ' .fill');"
                " return f && parseFloat(f.style.width) < 10; }", arg=enemy["id"])
            assert player.locator(f"#c-{enemy['id']} .numbers").count() == 0
        chosen: list[str] = []
        clicks = play(gm, player, api, eid, typed_dice=types, chosen=chosen,
                      mine=combatant)
        assert clicks["player"] >= 1 and clicks["composed"] >= 1, clicks
        assert clicks["gm"] >= 1, clicks  # the GM chooses for the side it runs
        assert clicks["gm_dice"] == 0, clicks  # and fracas rolls that side's every die
        if types:
            assert clicks["typed"] == 1, clicks  # the player typed their own dice once
            # whether the desk is looked at while fracas's roll is shown depends on timing:
            # test_browser_who_rolls.py::test_the_desk_and_the_phone_show_fracass_roll_as_it_falls
            # checks that line where it waits for it
        for page in (gm, player):
            page.wait_for_selector("#result")
            assert "over" in page.locator("#result").inner_text()
            assert page.evaluate("window.__loaded_once") is True  # never reloaded
        final = api.get(f"/api/encounters/{eid}").json()
        assert final["over"] and final["log"][-1]["type"] == "FightEnded"
        whole = api.get(f"/api/encounters/{eid}/log").json()["log"]  # a view: the newest lines
        told = " ".join(str(e.get("text", "")) for e in whole).lower()
        assert chosen and all(label.lower() in told for label in chosen), (chosen, told[:500])
        api.close()
    finally:
        gm_ctx.close()
        phone.close()
