"""A press on an option is never lost while the panel is redrawn (Playwright, Debian's
headless Chromium, a real server).

The choice comes before its odds: the page asks again every 300 ms and redraws the panel
when they come. A redraw between the press and the release put a copy of the option under
the pointer: the click fell between the old button and the new one, and nothing was sent.
The browser test of whole fights saw it (a click with no request after it, the fight
stuck). Here the redraw that brings the odds in is made to come while the button is held
down: the page's answer with the odds is held back on its way (a slow network) until the
press has begun.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, Route

from fracas.web.testing import ServerProcess
from tests.web.helpers import answer_for
from tests.web.test_browser import create_as_gm


class SlowOdds:
    """The panel's answers on their way to the page: the one that brings in the odds of
    the decision shown (version :attr:`shown`) is held until :meth:`deliver`."""

    def __init__(self) -> None:
        self.shown = -1
        self.held: list[tuple[Route, Any]] = []

    def __call__(self, route: Route) -> None:
        answer = route.fetch()
        body = answer.body()
        match = re.search(rb'data-version="(\d+)"', body)
        if (match and int(match.group(1)) == self.shown and not self.held
                and b"data-odds-pending" not in body):
            self.held.append((route, answer))
            return
        route.fulfill(response=answer)

    def deliver(self) -> None:
        for route, answer in self.held:
            route.fulfill(response=answer)
        self.held.clear()


def _held_odds(gm: Page, api: httpx.Client, eid: str, slow: SlowOdds) -> int:
    """Answer decisions through the API until the desk shows one before its odds and the
    page's answer with them is held; that decision's version."""
    for _ in range(80):
        view = api.get(f"/api/encounters/{eid}").json()
        assert not view["over"], "the fight ended before a decision was seen without odds"
        gm.wait_for_function("v => +document.querySelector('#tracker').dataset.version >= v",
                             arg=view["version"])
        if gm.locator("#panel .panel[data-odds-pending]").count():
            slow.shown = view["version"]
            end = time.monotonic() + 10
            while not slow.held and time.monotonic() < end:
                gm.wait_for_timeout(50)
            if slow.held and gm.locator("#panel .panel[data-odds-pending]").count():
                return int(view["version"])
        answer = api.post(f"/api/encounters/{eid}/decisions",
                          json={"version": view["version"],
                                "answer": answer_for(view["pending"]["decision"])})
        assert answer.status_code == 200, answer.text
    raise AssertionError("no decision was shown before its odds in 80 decisions")


def test_an_option_held_down_while_its_odds_come_in_is_taken(
        browser: Browser, server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        gm = context.new_page()
        admin = create_as_gm(gm, server, "tristat/duel-fight.yaml", "blades", roll_all=True)
        eid = gm.url.rsplit("/", 1)[1]
        api = httpx.Client(base_url=server.url, timeout=60,
                           headers={"Authorization": f"Bearer {admin.rsplit('/', 1)[1]}"})
        slow = SlowOdds()
        gm.route("**/panel*", slow)
        shown = _held_odds(gm, api, eid, slow)
        box = gm.locator("#pending button.option").first.bounding_box()
        assert box is not None
        gm.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        gm.mouse.down()
        slow.deliver()  # the odds reach the page while the button is held down
        gm.wait_for_timeout(500)
        gm.mouse.up()
        gm.wait_for_function("v => +document.querySelector('#tracker').dataset.version > v",
                             arg=shown, timeout=60_000)
        assert api.get(f"/api/encounters/{eid}").json()["version"] > shown  # it was sent
    finally:
        # the page's asks still on their way when it closes are let go
        context.unroute_all(behavior="ignoreErrors")
        for page in context.pages:
            page.unroute_all(behavior="ignoreErrors")
        context.close()
