"""The new-encounter form's "who rolls the GM side's dice" (issue 34, noticed after the GMs'
trial): a post with a choice the form does not offer (crafted, or from an old page) is
refused with the form's own words (its question and its choices), never the field's code
name or the values the code keeps; through ``fracas serve`` on a loopback port, and the
page as Chromium shows it."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from playwright.sync_api import Browser

from fracas.web.auth import GM_COOKIE
from fracas.web.testing import ServerProcess
from tests.web.helpers import new_gm

DUEL = "tristat/duel-fight.yaml"
SAID = ("The dice of the combatants you run: 'sometimes' is not a choice the form offers "
        "(allowed: fracas rolls them and says what it rolled, or you type them on your desk "
        "(or tap “Roll for me”))")


def test_a_choice_the_form_does_not_offer_is_refused_in_its_words(server: ServerProcess
                                                                  ) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm = new_gm(http)
        http.cookies.set(GM_COOKIE, gm.headers["Authorization"].split()[1])
        before = len(gm.get("/api/encounters").json())
        r = http.post("/gm/encounters", data={"source": "example", "example": DUEL,
                                              "gm_dice": "sometimes"})
        assert r.status_code == 400, r.text
        error = re.search(r'<ul class="error" id="error"[^>]*>(.*?)</ul>', r.text, re.S)
        assert error is not None, r.text[-2000:]
        said = re.sub(r"<[^>]+>", "", error[1]).replace("&#39;", "'").replace("&#34;", '"')
        assert said == SAID, said
        assert "gm_dice" not in said and "typed" not in said
        # the form comes back with the offered default chosen, nothing created
        assert re.search(r'value="fracas" checked', r.text), r.text[-3000:]
        assert len(gm.get("/api/encounters").json()) == before
        for offered in ("fracas", "typed"):
            r = http.post("/gm/encounters", data={"source": "example", "example": DUEL,
                                                  "gm_dice": offered},
                          follow_redirects=False)
            assert r.status_code == 303, r.text


def test_the_page_shows_the_refusal(browser: Browser, server: ServerProcess,
                                    tmp_path: Path) -> None:
    """The form's radio given a value it does not offer, then Create: the page says why in
    the form's words, beside the form."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        page.click("#start")
        page.click("#to-encounters")
        page.select_option("#example", DUEL)
        page.evaluate("document.querySelector('#gm-dice input[value=typed]').value = "
                      "'sometimes'")
        page.check("#gm-dice input[value=sometimes]")
        page.click("#create")
        page.wait_for_selector("#error")
        assert page.locator("#error").inner_text().strip() == SAID
        assert page.locator("#gm-dice input[value=fracas]").is_checked()
        page.screenshot(path=str(tmp_path / "form-refused.png"), full_page=True)
    finally:
        ctx.close()
