"""A new GM running a Genesys three-against-three in Debian's headless Chromium (Playwright),
with the server rolling every die: what the GM does by hand between rolls never changes a
roll the table has already seen, and the turn order tells the slot being played."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from fracas.web.testing import ServerProcess
from tests.web.test_browser import create_as_gm, version
from tests.web.test_browser_gm import caught_up, click, moved, settled
from tests.web.test_browser_table import at_the_table, type_dice

DESK = {"width": 1280, "height": 1000}


@contextlib.contextmanager
def gm_desk(browser: Browser, server: ServerProcess, roll_all: bool,
            seed: int | None = None, gm_dice: str | None = None) -> Iterator[Page]:
    """A new GM's desk with the three-against-three (the GM deciding for everybody;
    ``gm_dice``: who rolls their dice, as the form asks, None: fracas, the default)."""
    desk = browser.new_context(viewport=DESK)
    try:
        gm = desk.new_page()
        create_as_gm(gm, server, "genesys/three-vs-three-fight.yaml", "heroes",
                     roll_all=roll_all, seed=seed, gm_dice=gm_dice)
        yield gm
    finally:
        desk.close()


def rolls(page: Page) -> list[str]:
    """The log's lines that tell a roll, read in one go."""
    lines: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#log li')].map(li => li.textContent)"
        ".filter(t => / rolls [PADCSB-]+: /.test(t))")
    return lines


def edit(gm: Page, combatant: str, field: str, value: str) -> None:
    """The GM's Edit form: a value set by hand, waited for until it is committed."""
    gm.select_option("#adjust select[name=combatant]", combatant)
    gm.fill("#adjust input[name=field]", field)
    gm.fill("#adjust input[name=value]", value)
    v = version(gm)
    gm.click("#adjust button[type=submit]")
    moved(gm, v)


def hurt(gm: Page, combatant: str, amount: int) -> None:
    """The GM's quick damage on a combatant, waited for until it is committed."""
    gm.fill(f"#c-{combatant} form.quick input[name=amount]", str(amount))
    v = version(gm)
    gm.click(f"#c-{combatant} button.hurt")
    moved(gm, v)


def test_a_hand_edit_keeps_the_initiative_the_server_rolled(browser: Browser,
                                                             server: ServerProcess) -> None:
    """The server rolls all six initiatives; the GM then takes 3 wounds off the bruiser
    with '− damage' (and puts a condition on the knife fighter): the six rolls in the log
    are the ones rolled before, not six new ones (the edit was played again in front of
    the round's rolls, which were drawn afresh)."""
    with gm_desk(browser, server, roll_all=True) as gm:
        gm.wait_for_selector("#prompt")
        settled(gm)
        before = rolls(gm)
        assert len(before) == 6, before
        def who(text: str) -> list[str]:  # the slots and who may take them, not health
            return re.sub(r" \d+/\d+", "", text).split("\n")[:4]

        order = who(gm.locator("#order").inner_text())
        hurt(gm, "bruiser", 3)
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
        assert who(gm.locator("#order").inner_text()) == order


ORDER = """() => [...document.querySelectorAll('#order ol.order > li')].map(li => ({
    label: li.querySelector('.hint').textContent.trim(),
    names: [...li.querySelectorAll('.slot-who .who')]
        .map(w => w.textContent.replace('▶', '').trim()),
    acting: li.querySelectorAll('.slot-who.acting').length,
    bars: li.querySelectorAll('.bar').length,
    text: li.textContent.replace(/\\s+/g, ' ').trim(),
    done: li.classList.contains('done'), current: li.classList.contains('current')}))"""


def test_the_turn_order_names_who_took_each_slot(browser: Browser,
                                                 server: ServerProcess) -> None:
    """Genesys slots may be taken by any PC (or NPC): once taken, a slot of the turn order
    names the one who took it (as the log tells it), the slot being played names only who
    plays it, and only that one is marked as acting; a later slot leaves out whoever has
    already acted this round, and lists those who may take it with their health in
    numbers ('one of Kira 14/14, Tomas 12/12'), without a health bar for each. Before,
    every slot listed every candidate and the acting one was highlighted in each of them."""
    with gm_desk(browser, server, roll_all=True, seed=3) as gm:
        for _ in range(60):  # the first option, until two slots of round 1 are taken
            gm.wait_for_selector("#pending button.option")
            settled(gm)
            slots = gm.evaluate(ORDER)
            if sum(s["done"] for s in slots) >= 2:
                break
            click(gm, "#pending button.option")
        else:
            raise AssertionError("round 1 did not get two slots on")
        log = gm.locator("#log").inner_text()
        acted = []
        for s in slots:
            if s["done"] or s["current"]:
                assert len(s["names"]) == 1, s
                assert f"{s['names'][0]}'s turn ({s['label']})" in log, (s, log)
                acted.append(s["names"][0])
            else:
                assert s["names"] and not set(s["names"]) & set(acted), (s, acted)
                if len(s["names"]) > 1:  # each with its health in numbers, no bar
                    assert s["bars"] == 0, s
                    assert s["text"].startswith(f"{s['label']} one of {s['names'][0]} "), s
                    assert len(re.findall(r"\d+/\d+", s["text"])) == len(s["names"]), s
            assert s["acting"] == (1 if s["current"] else 0), s
        assert len(acted) >= 2


def test_a_genesys_pool_is_told_in_words_on_the_dice_form(browser: Browser,
                                                          server: ServerProcess) -> None:
    """The prompt writes a pool by its letters ('dice PPA'); the form under it says which
    dice they are, by the data pack's names, so a new table knows what to pick up (the
    GM chose to type the dice of the side they run: fracas rolls them by default)."""
    with gm_desk(browser, server, roll_all=False, gm_dice="typed") as gm:
        for _ in range(8):  # Kira's, Tomas's, ... up to the gang boss's initiative
            gm.wait_for_selector("#pending #dice-input")
            settled(gm)
            shown = gm.evaluate("() => [document.querySelector('#prompt').textContent,"
                                " document.querySelector('#dice-words')?.textContent]")
            if "Gang boss" in shown[0]:
                break
            v = version(gm)
            gm.locator("form.dice .roll").click()
            moved(gm, v)
        assert shown[0] == "Gang boss's initiative (Cool): dice PPA", shown
        assert shown[1] == "PPA: 2 proficiency, 1 ability", shown
        # an attack's pool: the positive dice against the negative ones
        gm.fill("#dice-input", "ss")
        v = version(gm)
        gm.click("#enter-dice")
        moved(gm, v)
        for _ in range(30):
            gm.wait_for_selector("#pending")
            settled(gm)
            prompt = gm.locator("#prompt").inner_text() if gm.locator("#prompt").count() \
                else ""
            if gm.locator("#dice-input").count() and " on " in prompt:
                break
            click(gm, "#pending button.option")
        shown = gm.evaluate("() => [document.querySelector('#prompt').textContent,"
                            " document.querySelector('#dice-words').textContent]")
        pool = shown[0].split(": dice ", 1)[1].split(",")[0]
        assert "-" in pool and shown[1].startswith(f"{pool}: "), shown
        assert " against " in shown[1] and "difficulty" in shown[1], shown


def test_a_player_waits_for_the_choice_of_a_slot_not_for_a_name(
        browser: Browser, server: ServerProcess) -> None:
    """While the GM chooses which NPC takes an NPC slot, the player's phone says what is
    awaited ('the choice of who takes NPC slot 1'), not 'Waiting for Gang boss…' as if
    the first NPC who may take it had already been chosen."""
    with at_the_table(browser, server, "genesys/three-vs-three-fight.yaml", "heroes", True,
                      "kira", seed=3) as (gm, player):
        for _ in range(40):
            gm.wait_for_selector("#pending")
            settled(gm)
            prompt = gm.locator("#prompt").inner_text() if gm.locator("#prompt").count() \
                else ""
            if prompt.startswith("Who takes NPC slot"):
                break
            page = player if player.locator("#pending button.option").count() else gm
            click(page, "#pending button.option")
        else:
            raise AssertionError("no NPC slot was asked")
        player.wait_for_function(
            "v => +document.querySelector('#tracker').dataset.version >= v", arg=version(gm))
        slot = prompt.removeprefix("Who takes ").rstrip("?")
        want = f"Waiting for the choice of who takes {slot}…"
        with contextlib.suppress(PlaywrightTimeout):  # the phone's panel drawn for it
            player.wait_for_function("w => document.querySelector('#waiting')?.innerText"
                                     " === w", arg=want, timeout=10000)
        assert player.locator("#waiting").inner_text() == want


def test_an_action_with_nothing_more_to_choose_says_so(browser: Browser,
                                                        server: ServerProcess) -> None:
    """Genesys 'Defend' leads to the Guarded Stance, which has no options: the composer
    says there is nothing more to choose and Go takes it, instead of a heading 'options
    (each switches on or off)' over an empty list."""
    with gm_desk(browser, server, roll_all=True, seed=3) as gm:
        for _ in range(20):
            gm.wait_for_selector("#pending")
            settled(gm)
            if gm.locator("#compose").count():
                break
            click(gm, "#pending button.option")
        gm.locator("#compose button.step-entry", has_text="Defend").click()
        gm.wait_for_selector("#compose #back")
        shown = gm.evaluate("() => [document.querySelector('#composed').textContent,"
                            " document.querySelectorAll('#compose h3.step').length,"
                            " document.querySelectorAll('#compose button.step-entry:not(.back)')"
                            ".length, document.querySelector('#step-done')?.textContent]")
        assert shown == ["Guarded stance", 0, 0, "Nothing more to choose: Go takes it."], shown
        v = version(gm)
        gm.click("#go")
        moved(gm, v)
        assert "takes a Guarded Stance" in gm.locator("#log").inner_text()


def test_genesys_health_reads_as_wounds_and_strain(browser: Browser,
                                                   server: ServerProcess) -> None:
    """A Genesys table counts wounds up to the threshold (the log: 'Kira: wounds 0 → 3'):
    the status reads 'wounds 3 of 14, strain 0 of 12', on the GM's screen and on Kira's
    player's phone, not '11/14' (what is left) with no strain at all; a rival has no
    strain threshold, so wounds alone."""
    with at_the_table(browser, server, "genesys/three-vs-three-fight.yaml", "heroes", True,
                      "kira") as (gm, player):
        gm.wait_for_selector("#pending")
        hurt(gm, "kira", 3)
        player.wait_for_function(
            "v => +document.querySelector('#tracker').dataset.version >= v", arg=version(gm))
        assert "Kira: wounds 0 → 3" in gm.locator("#log").inner_text()
        shown = gm.evaluate("() => ['#c-kira', '#c-nia', '#c-boss'].map(s =>"
                            " document.querySelector(s + ' .numbers').textContent)")
        assert shown == ["wounds 3 of 14, strain 0 of 12", "wounds 0 of 10",
                         "wounds 0 of 15, strain 0 of 14"], shown
        assert player.locator("#yours-kira .numbers").inner_text() == \
            "wounds 3 of 14, strain 0 of 12"
        assert player.locator("#yours-kira .status").inner_text() == \
            "wounds 3 of 14, strain 0 of 12 · hurt"
        assert player.locator("#c-boss .numbers").count() == 0  # the others: a bar only


IN_SIGHT = """sel => { const e = document.querySelector(sel); if (!e || e.hidden) return null;
    const r = e.getBoundingClientRect();
    return [e.textContent, r.top >= 0 && r.bottom <= window.innerHeight]; }"""


def test_a_hand_edit_is_told_where_the_gm_is_looking(browser: Browser,
                                                     server: ServerProcess) -> None:
    """The GM's edit goes into the log before the turn under way, out of sight at the
    log's end, and the Edit form is at the page's foot while the error box is at its
    head: what the edit did ('Done: Gang boss: strain 0 → 2') and why one is refused are
    both told in sight of the form the GM used."""
    with gm_desk(browser, server, roll_all=True) as gm:
        gm.wait_for_selector("#pending")
        settled(gm)
        edit(gm, "boss", "strain", "2")
        gm.wait_for_selector("#notice:not([hidden])")
        told = gm.evaluate(IN_SIGHT, "#notice")
        assert told == ["Done: Gang boss: strain 0 → 2", True], told
        assert not gm.locator("#log li").last.inner_text().startswith("Gang boss: strain")
        # refused: the reason in sight too, and the notice of the last edit gone
        gm.select_option("#adjust select[name=combatant]", "boss")
        gm.fill("#adjust input[name=field]", "hp")
        gm.fill("#adjust input[name=value]", "2")
        gm.click("#adjust button[type=submit]")
        gm.wait_for_selector("#error:not([hidden])")
        told = gm.evaluate(IN_SIGHT, "#error")
        assert told is not None and "Gang boss has no value 'hp'" in told[0] and told[1], told
        assert gm.locator("#notice").is_hidden()


def test_the_gms_forms_survive_a_redraw(browser: Browser, server: ServerProcess) -> None:
    """The panel is drawn again whenever the table moves on: what the GM had picked or was
    typing in the tools stays (the combatant of Edit after an edit, so a second edit is
    not made on the first combatant of the list; a condition half typed while a player
    answers on their phone), and the form just sent is emptied of its text."""
    with at_the_table(browser, server, "genesys/three-vs-three-fight.yaml", "heroes", True,
                      "kira", seed=3) as (gm, player):
        gm.wait_for_selector("#pending")
        settled(gm)
        edit(gm, "boss", "strain", "2")
        gm.wait_for_selector("#notice:not([hidden])")
        kept = gm.evaluate("() => ['select[name=combatant]', 'input[name=field]',"
                           " 'input[name=value]'].map(s =>"
                           " document.querySelector('#adjust ' + s).value)")
        assert kept == ["boss", "", ""], kept
        # the GM types a condition on Nia while Kira's player answers on the phone
        for _ in range(40):
            player.wait_for_function(
                "v => +document.querySelector('#tracker').dataset.version >= v",
                arg=version(gm))
            if player.locator("#pending button.option").count():
                break
            click(gm, "#pending button.option")
        else:
            raise AssertionError("Kira's player was never asked")
        settled(gm)
        gm.select_option("#condition select[name=combatant]", "nia")
        gm.fill("#condition input[name=condition]", "stag")
        v = version(player)
        click(player, "#pending button.option")
        moved(gm, v)
        kept = gm.evaluate("() => [document.querySelector('#condition select').value,"
                           " document.querySelector('#condition input[name=condition]').value,"
                           " document.activeElement.name]")
        assert kept == ["nia", "stag", "condition"], kept


def test_dice_half_typed_on_a_phone_survive_the_gms_edit(browser: Browser,
                                                          server: ServerProcess) -> None:
    """Kira's player is typing the symbols of her initiative when the GM hurts the bruiser:
    the phone's panel is drawn again (the table moved on), the same roll is still asked,
    and what the player typed is still in the box, which still has the focus. Once it is
    entered, fracas rolls every other initiative (the GM's side: the default)."""
    with at_the_table(browser, server, "genesys/three-vs-three-fight.yaml", "heroes", False,
                      "kira") as (gm, player):
        player.wait_for_selector("#pending #dice-input")
        assert player.locator("#prompt").inner_text().startswith("Kira's initiative")
        player.fill("#dice-input", "2s a")
        v = version(player)
        hurt(gm, "bruiser", 2)
        moved(player, v)
        kept = player.evaluate("() => [document.querySelector('#prompt').textContent,"
                               " document.querySelector('#dice-input').value,"
                               " document.activeElement.id]")
        assert kept == ["Kira's initiative (Cool): dice PA", "2s a", "dice-input"], kept
        type_dice(player, "2s a")
        caught_up(gm, player)
        gm.wait_for_selector("#pending #prompt")
        assert "initiative" not in gm.locator("#prompt").inner_text()
        assert "Tomas rolls Cool for initiative" in gm.locator("#log").inner_text()


def test_the_rest_of_a_roll_is_spent_by_fracas_in_words(browser: Browser,
                                                         server: ServerProcess) -> None:
    """The attacker spends advantage one option at a time; the option that hands the rest
    over says who spends it as the page says everywhere ('Let fracas decide this turn'):
    'let fracas spend the rest (critical first)', not 'let the policy spend…'."""
    with gm_desk(browser, server, roll_all=False) as gm:
        for _ in range(40):
            gm.wait_for_selector("#pending #prompt")
            settled(gm)
            prompt = gm.locator("#prompt").inner_text()
            if " spends " in prompt:
                break
            v = version(gm)
            if gm.locator("#dice-input").count() and " on " in prompt:
                gm.fill("#dice-input", "s aa")  # a hit with advantage to spend
                gm.click("#enter-dice")
            elif gm.locator("#dice-input").count():
                gm.locator("form.dice .roll").click()
            else:
                gm.locator("#pending button.option").first.click()
            moved(gm, v)
        else:
            raise AssertionError("no spending was asked")
        labels = gm.locator("#pending button.option").evaluate_all(
            "bs => bs.map(b => b.textContent.trim())")
        rest = [x for x in labels if "spend the rest" in x]
        assert rest and rest[0].startswith("let fracas spend the rest ("), labels
        assert not [x for x in labels if "policy" in x], labels
