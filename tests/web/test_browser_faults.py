"""The GM's desk through a fault, in Debian's headless Chromium (Playwright): the page open
on a live encounter says what is wrong while the server or its database is away (the
table's own message for the database), and once it is back catches up by itself, without
a reload, to a change another client made meanwhile; then the message is gone.

SQLite: the server process is stopped and started again on the same port, and the change
is made through a second server process on the same file while the first is down.
PostgreSQL: the database server is stopped (the tracker stays up) and started again; a
click on the page meanwhile is not saved and says so; the change is made once it is back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from fracas.web.auth import GM_COOKIE
from fracas.web.store import UNAVAILABLE, UNREADABLE
from fracas.web.testing import ServerProcess, postgres_bin, throwaway_postgres
from tests.web.helpers import Client
from tests.web.test_browser import version
from tests.web.test_faults import Restartable, decide_once, decide_when_back, fight

SAID = ("() => { const c = document.querySelector('#connection');"
        " return c.hidden ? '' : c.textContent; }")
LOST = "Connection lost — trying again…"


def desk(browser: Browser, server: ServerProcess, seed: int) -> tuple[str, str, Page]:
    """A new GM's fight, two answers in, and the GM's page on it, marked so that a reload
    would show: the GM's key, the encounter's id, the page."""
    with fight(server.url, seed=seed, answered=2) as (gm, eid):
        key = gm.headers["Authorization"].split()[1]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": GM_COOKIE, "url": server.url, "value": key}])
    page = context.new_page()
    page.goto(f"{server.url}/e/{eid}")
    page.wait_for_selector("#pending")
    page.evaluate("() => { window.notReloaded = true; }")
    return key, eid, page


def says(page: Page, text: str) -> None:
    page.wait_for_function(f"t => ({SAID})() === t", arg=text, timeout=60000)


def caught_up_by_itself(page: Page, view: dict[str, Any], shot: Path) -> None:
    """The page shows ``view``'s version and what it asks, the message gone, no reload."""
    page.wait_for_function("v => +document.querySelector('#tracker').dataset.version >= v",
                           arg=view["version"], timeout=60000)
    says(page, "")  # "Connected again.", then nothing
    page.screenshot(path=str(shot))
    assert version(page) == view["version"]
    assert page.evaluate("() => window.notReloaded") is True
    assert page.locator("#error").is_hidden()
    asked = page.locator("#prompt").inner_text()
    assert asked and asked in view["pending"]["decision"]["prompt"], (asked, view["pending"])


def test_a_server_restart_on_sqlite_and_the_page_catches_up(
        browser: Browser, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.sqlite3'}"
    server = ServerProcess(db).start()
    try:
        key, eid, page = desk(browser, server, seed=3)
        before = version(page)
        server.stop()
        says(page, LOST)
        page.screenshot(path=str(tmp_path / "sqlite-down.png"))
        # another client, through another server process on the same file, meanwhile
        other = ServerProcess(db).start()
        try:
            with httpx.Client(base_url=other.url, timeout=30) as http:
                r = decide_once(Client(http, key), eid)
                assert r.status_code == 200, r.text
                view = r.json()
        finally:
            other.stop()
        assert view["version"] == before + 1 and version(page) == before
        server.start()  # the same port: the page's stream and fetches find it again
        caught_up_by_itself(page, view, tmp_path / "sqlite-back.png")
    finally:
        server.stop()


def test_a_postgresql_restart_and_the_page_catches_up(browser: Browser,
                                                      tmp_path: Path) -> None:
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed")
    with throwaway_postgres() as url:
        database = Restartable(url)
        server = ServerProcess(url).start()
        try:
            key, eid, page = desk(browser, server, seed=5)
            before = version(page)
            database.stop()
            says(page, UNREADABLE)  # the open stream tells the idle page
            page.screenshot(path=str(tmp_path / "postgresql-down.png"))
            # a click meanwhile is not saved, and the page says so
            page.locator("#pending button").first.click()
            says(page, UNAVAILABLE)
            page.screenshot(path=str(tmp_path / "postgresql-click.png"))
            assert version(page) == before and page.locator("#error").is_hidden()
            database.start()
            # another client's change, once the database is back
            with httpx.Client(base_url=server.url, timeout=30) as other:
                r = decide_when_back(Client(other, key), eid)
                assert r.status_code == 200, r.text
                view = r.json()
            assert view["version"] == before + 1
            caught_up_by_itself(page, view, tmp_path / "postgresql-back.png")
        finally:
            server.stop()
