"""Served under a URL prefix (a proxy's path, ``SCRIPT_NAME``), the app stays installable:
the service worker is the prefix's own, and with no connection the offline notice is
found there, and goes away by itself when the server answers again."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from scorekeeper import create_app
from tests.browser.phones import PHONE, phone_page, serve
from tests.databases import database_url
from tests.members import member_cookie

pytestmark = pytest.mark.browser

PREFIX = "/schmier"


@pytest.fixture
def prefixed_phone(browser, tmp_path: Path):
    """(a member's phone, the app's address) with the app served under PREFIX (anything
    else on the server is not found)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "prefix-test",
                      "DATABASE_URL": database_url(f"sqlite:///{tmp_path / 'prefix.sqlite'}")})
    served = DispatcherMiddleware(NotFound(), {PREFIX: app})
    for url in serve(served, "prefix-server"):
        for page in phone_page(browser, PHONE, (url, member_cookie(app, "owner"))):
            yield page, url + PREFIX


def test_under_a_prefix_the_worker_registers_there_and_finds_the_offline_page(
        prefixed_phone: tuple[Page, str]):
    page, app_url = prefixed_phone
    page.goto(f"{app_url}/rules")
    # The page registers its worker under the prefix, and it becomes active there.
    page.evaluate("void navigator.serviceWorker.ready.then((r) => { window.scope = r.scope; })")
    scope = page.wait_for_function("() => window.scope").json_value()
    assert scope == f"{app_url}/"
    page.reload()  # now the service worker looks after the page
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    try:
        page.goto(f"{app_url}/evenings")
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
        # The stylesheet under the prefix came from the cache: the page is laid out.
        assert page.evaluate("getComputedStyle(document.querySelector('.button')).minHeight") \
            == "48px"
    finally:
        page.context.set_offline(False)
    # Back online, the health check under the prefix answers: the page asked for shows.
    expect(page.get_by_role("heading", name="Evenings", exact=True)).to_be_visible()
    assert page.url == f"{app_url}/evenings"
