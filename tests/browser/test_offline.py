"""Installed on the phone, with no connection: a clear notice, not the browser's error."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_with_no_connection_the_page_says_everything_recorded_is_safe(page: Page,
                                                                      live_server: str):
    page.goto(f"{live_server}/rules")
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller === null"
                           " ? navigator.serviceWorker.ready.then(() => true) : true")
    page.reload()  # now the service worker looks after the page
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    try:
        page.goto(f"{live_server}/evenings")
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
        expect(page.get_by_text("Everything recorded so far is safe.")).to_be_visible()
        # The stylesheet came from the cache: the page is laid out, not bare.
        assert page.evaluate("getComputedStyle(document.querySelector('.button')).minHeight") \
            == "48px"
    finally:
        page.context.set_offline(False)
    # Back online, the page that was asked for shows by itself: nothing to tap.
    expect(page.get_by_role("heading", name="Evenings", exact=True)).to_be_visible()
