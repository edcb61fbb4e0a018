"""The game's score chart on a phone set to dark: drawn on dark paper in light ink, not
a white box; on a phone set to light, as before. The chart keeps its colours in its own
picture (a page's stylesheet can't reach into an image), and the page's policy refuses
nothing on the way: a scorer records a hand and the new chart comes in with the page's
answer, with no console error and no policy report.

At 390x844, the scorer of a club of its own, on the scene's game (``scene.py``).
"""
from __future__ import annotations

import base64

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import PHONE, phone_page
from tests.browser.scene import start_scene
from tests.browser.table_steps import Taps, button, everyone_passed, expect_notice
from tests.browser.test_csp import Listener

pytestmark = [pytest.mark.browser, pytest.mark.drawn]

# The luminance (0-255) of a picture's pixel in the middle of its top eighth: the
# chart's paper as the screen shows it (between the target's line and the teams' lines,
# inside its rounded corners), whatever is drawn behind the image too.
LUMINANCE = """
async (png) => {
  const picture = new Image();
  picture.src = 'data:image/png;base64,' + png;
  await picture.decode();
  const canvas = document.createElement('canvas');
  canvas.width = picture.width; canvas.height = picture.height;
  const drawing = canvas.getContext('2d');
  drawing.drawImage(picture, 0, 0);
  const [red, green, blue] = drawing.getImageData(picture.width / 2, picture.height / 8, 1, 1).data;
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}
"""


def chart_paper(page: Page) -> float:
    # (The caret left as it is: hiding it, Playwright leaves style="" on every field.)
    chart = page.locator(".chart img")
    chart.scroll_into_view_if_needed()
    # A function, not an expression: the page's policy refuses a string evaluated.
    page.wait_for_function("() => document.querySelector('.chart img').complete")
    return page.evaluate(LUMINANCE, base64.b64encode(chart.screenshot(caret="initial")).decode())


@pytest.fixture
def scorer_phone(browser, club):
    yield from phone_page(browser, PHONE, club.member("scorer", "Sam"))


@pytest.mark.parametrize("scheme, dark", [("dark", True), ("light", False)])
def test_the_chart_follows_the_phones_dark_setting_and_the_policy_refuses_nothing(
        scorer_phone: Page, club, scheme: str, dark: bool):
    page = scorer_phone
    listener = Listener(page)
    page.emulate_media(color_scheme=scheme)
    game = start_scene(club.app, club.id)
    page.goto(f"{club.url}/games/{game}")
    paper = chart_paper(page)
    assert (paper < 40) if dark else (paper > 240), paper
    # A hand recorded: the page's answer brings the chart of nine hands.
    taps = Taps()
    everyone_passed(page, taps)
    taps(button(page, "Record the throw-in"))
    expect_notice(page, "Hand 9: thrown in.")
    expect(page.locator(".chart img")).to_have_attribute("src", f"/games/{game}/chart.svg?v=11&lang=en")
    paper = chart_paper(page)
    assert (paper < 40) if dark else (paper > 240), paper
    assert not listener.problems, "\n".join(listener.problems + ["console:", *listener.console])
