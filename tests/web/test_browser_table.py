"""A new GM at the table, in Debian's headless Chromium (Playwright), with one player on a
phone: what the dice form asks is what it takes (Genesys symbols as the prompt writes
them, c22 cards), a bad roll is told on the page, and the GM's roll-all leaves a player's
own die of a contest's joint roll to the player."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import httpx
from playwright.sync_api import Browser, Page

from fracas.web.testing import ServerProcess
from tests.web.helpers import WAIT_MS, Client, answer_for
from tests.web.test_browser import create_as_gm, invite_player, version
from tests.web.test_browser_gm import PHONE, caught_up, click, moved, to_gorrs_turn

DESK = {"width": 1280, "height": 1000}


@contextlib.contextmanager
def at_the_table(browser: Browser, server: ServerProcess, example: str, side: str,
                 roll_all: bool, pc: str, seed: int | None = None,
                 gm_dice: str | None = None) -> Iterator[tuple[Page, Page]]:
    """The GM's desk with a new encounter from ``example`` (``seed``: the roller's;
    ``gm_dice``: who rolls the GM side's dice, as the form asks, None: fracas, the
    default), and a player's phone opened on the invite for ``pc``."""
    desk = browser.new_context(viewport=DESK)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        gm = desk.new_page()
        create_as_gm(gm, server, example, side, roll_all=roll_all, seed=seed,
                     gm_dice=gm_dice)
        player = phone.new_page()
        player.goto(invite_player(gm, "Pat", pc))
        player.wait_for_selector("#tracker")
        yield gm, player
    finally:
        desk.close()
        phone.close()


def type_dice(page: Page, text: str) -> None:
    """Type a roll and wait until it is taken (the version moves on)."""
    before = version(page)
    page.fill("#dice-input", text)
    page.click("#enter-dice")
    moved(page, before)
    assert page.locator("#error").is_hidden()


def test_genesys_symbols_are_asked_and_taken_as_the_prompt_writes_them(
        browser: Browser, server: ServerProcess) -> None:
    # the GM types the dice of the side they run (the form's choice), as counts
    with at_the_table(browser, server, "genesys/duel-fight.yaml", "port", False,
                      "red", gm_dice="typed") as (gm, player):
        assert "Pat (Red)" in gm.locator("#players").inner_text()  # the sheet's name
        # Red's initiative is the player's: one text for the whole pool, not "values"
        player.wait_for_selector("#dice-input")
        label = player.locator("form.dice label").inner_text()
        assert "the symbols the dice show" in label and "value" not in label, label
        assert "2s1a" in (player.locator("#dice-input").get_attribute("placeholder") or "")
        before = version(player)
        player.fill("#dice-input", "3")  # a number is no symbol: told on the page
        player.click("#enter-dice")
        player.wait_for_selector("#dice-error:not([hidden])")  # one line beside the box
        assert "is not a set of symbols" in (
            player.locator("#dice-error").get_attribute("title") or "")
        assert version(player) == before
        type_dice(player, "S,A")
        # Blue's initiative is the GM's, typed as counts
        gm.wait_for_function("() => /Blue's initiative/.test("
                             "document.querySelector('#prompt')?.textContent || '')")
        type_dice(gm, "2s")
        log = gm.locator("#log").inner_text()
        assert "Red rolls A: s a → 1 net success, 1 net advantage" in log
        assert "Blue rolls A: ss → 2 net successes" in log


def test_c22_cards_are_asked_as_cards(browser: Browser, server: ServerProcess) -> None:
    desk = browser.new_context(viewport=DESK)
    try:
        gm = desk.new_page()
        gm.goto(server.url + "/")
        gm.click("#start")
        gm.click("#to-encounters")
        # the examples are offered by their titles, not by their files
        shown = gm.locator("#example option").evaluate_all(
            "os => os.map(o => [o.value, o.textContent])")
        assert any(v == "c22/duel-fight.yaml" and t.startswith(
            "Sabre against cutlass, short decks — ") for v, t in shown), shown
        assert not [t for _, t in shown if ".yaml" in t or "_" in t]
        # a side fracas is to play that the encounter does not have is refused, not let be
        gm.select_option("#example", "c22/duel-fight.yaml")
        gm.fill("#auto-sides", "undead")
        gm.click("#create")
        gm.wait_for_selector("#error")
        assert gm.locator("#error").inner_text() == (
            "sides fracas plays: no side 'undead' in this encounter (allowed: crew, pirates)")
        assert gm.locator("#encounters").count() == 0
        # this GM draws the cards of the side they run (the form's choice)
        create_as_gm(gm, server, "c22/duel-fight.yaml", "crew", roll_all=False,
                     gm_dice="typed")
        gm.wait_for_selector("#dice-input")
        assert "4H" in (gm.locator("#dice-input").get_attribute("placeholder") or "")
        assert gm.locator("#enter-dice").inner_text() == "Enter cards"  # drawn, not rolled
        assert gm.locator("form.dice .roll").inner_text() == "Draw for me"
        assert "Mara's initiative" in gm.locator("#prompt").inner_text()
        type_dice(gm, "4h")  # Mara's initiative card, in any case
        assert "Captain Vos's initiative" in gm.locator("#prompt").inner_text()
    finally:
        desk.close()


def test_the_gm_edits_a_value_by_the_label_the_page_shows(browser: Browser,
                                                          server: ServerProcess) -> None:
    """Tri-Stat: the Edit form takes the field as the sheet's state shows it (``most
    health``, offered in a list); a field that is not there is told with the labels; undo
    takes the edit back, and a reload shows what the server holds."""
    desk = browser.new_context(viewport=DESK)
    try:
        gm = desk.new_page()
        create_as_gm(gm, server, "tristat/duel-fight.yaml", "blades", roll_all=False)
        gm.wait_for_selector("#adjust")
        offered = gm.locator("#field-labels option").evaluate_all(
            "os => os.map(o => o.value)")
        assert "most health" in offered and "max_health" not in offered
        gm.select_option("#adjust select[name=combatant]", "gorr")
        gm.fill("#adjust input[name=field]", "hp")
        gm.fill("#adjust input[name=value]", "70")
        gm.click("#adjust button[type=submit]")
        gm.wait_for_selector("#error:not([hidden])")
        told = gm.locator("#error").inner_text()
        assert "Gorr has no value 'hp'" in told and "most health" in told, told
        assert "max_health" not in told
        before = version(gm)
        gm.select_option("#adjust select[name=combatant]", "gorr")
        gm.fill("#adjust input[name=field]", "Most Health")
        gm.fill("#adjust input[name=value]", "70")
        gm.click("#adjust button[type=submit]")
        moved(gm, before)
        assert gm.locator("#c-gorr .numbers").inner_text() == "60/70"
        assert "Gorr: most health 60 → 70" in gm.locator("#log").inner_text()
        gm.reload()
        assert gm.locator("#c-gorr .numbers").inner_text() == "60/70"
        before = version(gm)
        gm.click("#undo")
        moved(gm, before)
        assert gm.locator("#c-gorr .numbers").inner_text() == "60/60"
        gm.reload()
        assert gm.locator("#c-gorr .numbers").inner_text() == "60/60"
        assert "most health" not in gm.locator("#log").inner_text()
    finally:
        desk.close()


def test_a_roll_behind_the_screen_reaches_no_player(browser: Browser,
                                                     server: ServerProcess) -> None:
    """The GM's free-form action for Gorr with its roll behind the screen: the GM's log
    tells the roll; the player's phone tells what Gorr does, and nothing of the roll (page
    and JSON alike)."""
    with at_the_table(browser, server, "tristat/duel-fight.yaml", "blades", True,
                      "rin") as (gm, player):
        to_gorrs_turn(gm, player, "#free-action")
        gm.click("#free summary")
        gm.fill("#free-action input[name=description]", "glowers at the door")
        gm.fill("#free-action input[name=roll]", "3d6")
        gm.fill("#free-action input[name=target]", "7")
        gm.fill("#free-action input[name=value]", "12")
        gm.check("#free-action input[name=hidden]")
        before = version(gm)
        gm.click("#free-action button[type=submit]")
        moved(gm, before)
        assert "Gorr rolls 3d6 (behind the screen): 12, needs at least 7: success" in \
            gm.locator("#log").inner_text()
        caught_up(player, gm)
        seen = player.locator("#log").inner_text()
        assert "Gorr: glowers at the door" in seen
        assert "3d6" not in seen
        eid = player.url.rsplit("/", 1)[1]
        data = player.request.get(f"{server.url}/api/encounters/{eid}").text()
        assert "glowers at the door" in data and "3d6" not in data


def test_the_gms_roll_all_leaves_the_players_own_d20_in_a_contest(
        browser: Browser, server: ServerProcess) -> None:
    """The contest rolls everybody's initiative as one roll: the GM's one click rolls
    Grub's d20 and the player's phone still asks Pat for Rosa's own, which Pat types (the
    GM chose on the form to roll the GM side's dice themselves)."""
    # seeded: Grub's d20, rolled by fracas, must not tie with Rosa's typed 17 (a tie is
    # a roll-off, and the round would not begin yet)
    with at_the_table(browser, server, "contest/duel-fight.yaml", "raiders", False,
                      "rosa", seed=1, gm_dice="typed") as (gm, player):
        player.wait_for_selector("#pending #dice-input")
        assert "Rosa's initiative" in player.locator("#prompt").inner_text()
        caught_up(gm, player)
        gm.wait_for_selector("#roll-initiative")
        click(gm, "#roll-initiative")
        caught_up(player, gm)
        # Rosa's die is still Pat's: asked on the phone, the round not begun
        assert "Rosa's initiative" in player.locator("#prompt").inner_text()
        assert player.locator("#pending #dice-input").count() == 1
        assert gm.locator("#roll-initiative").count() == 0
        assert "round 1" not in gm.locator("#round").inner_text()
        type_dice(player, "17")
        caught_up(gm, player)
        assert gm.locator("#round").inner_text() == "round 1"
        log = gm.locator("#log").inner_text()
        assert "Rosa rolls d20 for initiative: 17" in log
        assert "Grub the Brute rolls d20 for initiative: 11" in log  # seed 1's die


def test_percentile_dice_typed_00_on_the_page_are_100(browser: Browser, server: ServerProcess
                                                      ) -> None:
    """The dice form of a d100 takes 00, as percentile dice show 100, and says so; its
    example is one value (the GM types the dice of the side they run: the form's choice)."""
    desk = browser.new_context(viewport=DESK)
    try:
        gm = desk.new_page()
        link = create_as_gm(gm, server, "zamani/duel-fight.yaml", "", roll_all=False, seed=1,
                            gm_dice="typed")
        eid = gm.url.rsplit("/", 1)[1]
        with httpx.Client(base_url=server.url, timeout=60) as http:
            api = Client(http, link.rsplit("/", 1)[1])
            view = api.view(eid)
            for _ in range(20):  # the GM answers by the API up to Kofi's first d100
                decision = view["pending"]["decision"]
                if decision["dice"] and decision["dice"]["die"] == "d100":
                    break
                r = api.decide(eid, view["version"], answer_for(decision))
                assert r.status_code == 200, r.text
                view = r.json()
        gm.wait_for_function("v => +document.querySelector('#tracker').dataset.version >= v",
                             arg=view["version"], timeout=WAIT_MS)
        assert "Kofi's short sword roll" in gm.locator("#prompt").inner_text()
        assert "1 to 100 (00 is 100)" in gm.locator("form.dice label").inner_text()
        assert gm.locator("#dice-input").get_attribute("placeholder") == "e.g. 3"
        type_dice(gm, "00")
        log = gm.locator("#log").inner_text()
        assert "Kofi rolls d100 for short sword (swords): 100 > 65%: failure" in log, log
    finally:
        desk.close()
