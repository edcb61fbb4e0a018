"""Times the server writes in UTC (a game's change log) read in the phone's own zone."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from scorekeeper.clubs.access import COOKIE
from tests.browser.phones import PHONE, TIMEOUT_MS
from tests.browser.scene import start_scene

ZONE = "Asia/Tehran"  # UTC+3:30: a half hour no rounding hides


def test_the_change_log_shows_each_time_in_the_phones_own_zone(browser, club, live_app):
    game = start_scene(live_app, club.id)
    url, cookie = club.member()
    context = browser.new_context(viewport=PHONE, timezone_id=ZONE, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    try:
        context.add_cookies([{"name": COOKIE, "value": cookie, "url": url}])
        page = context.new_page()
        page.goto(f"{url}/games/{game}/changes")
        times = page.locator("time.local-time")
        assert times.count() >= 2  # the scene's hands, and the correction
        page.wait_for_function("() => ![...document.querySelectorAll('time.local-time')]"
                               ".some((t) => t.textContent.includes('UTC'))")
        for at, shown in zip(times.evaluate_all("ts => ts.map(t => t.dateTime)"),
                             times.all_text_contents()):
            local = datetime.fromisoformat(at).astimezone(ZoneInfo(ZONE))
            assert local.strftime("%-m/%-d/%y") in shown, (at, shown)
            assert local.strftime("%-I:%M") in shown and local.strftime("%p") in shown, (at, shown)
    finally:
        context.close()
