"""A TV that is not in the club shows tonight's board by a screen link: the owner makes
the link on the club page, a browser that holds no cookie opens it, and tonight's first
game and then each hand a scorer's phone records come up on it by themselves. On a
phone (390x844) and on a TV (1920x1080), each in a club of its own.

The game (to 5, three pairs, Ann deals): Bob (seat 2, team B) bids 3 in hearts and takes
all six points, 6 >= 5, so Bob & Eve win it at hand 1.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import GLANCE_MS, PHONE, TIMEOUT_MS, told_of, within_polls
from tests.browser.table_steps import Taps, choose, layout_problems, start_game
from tests.browser.test_board_tv import BESIDE_THE_BOARD, TV
from tests.browser.test_table_board import bob_sweeps

pytestmark = pytest.mark.browser


def make_screen_link(owner: Page, base: str) -> str:
    """The owner's phone makes a screen link on the club page; its address."""
    owner.goto(f"{base}/club")
    taps = Taps()
    choose(owner, owner.get_by_role("radio", name=re.compile("^show tonight's boards")), taps)
    taps(owner.get_by_role("button", name="Make a new link"))
    card = owner.get_by_role("region", name="Screen for a TV: tonight's boards")
    expect(card.get_by_role("img", name="QR code of the link below")).to_be_visible()
    return card.locator(".link-text a").first.inner_text()


@pytest.mark.parametrize("viewport", [PHONE, TV], ids=["phone", "tv"])
def test_a_tv_with_no_cookie_follows_tonight_by_a_screen_link(
        page: Page, scorer: Page, browser, club, viewport) -> None:
    link = make_screen_link(page, club.url)
    assert re.fullmatch(rf"{club.url}/screen/[\w-]{{32}}", link), link

    context = browser.new_context(viewport=viewport)  # nobody's: no cookie, no member
    context.set_default_timeout(TIMEOUT_MS)
    told_of(context)
    try:
        tv = context.new_page()
        tv.goto(link)
        expect(tv.locator("#no-evening")).to_contain_text("No evening tonight")

        # A scorer starts tonight's first game: the TV shows it by itself.
        taps = Taps()
        start_game(scorer, club.url, taps, target=5)
        game = scorer.url.rsplit("/", 1)[1]
        within_polls(tv, lambda: expect(tv.locator(f'#board[data-game="{game}"]'))
                     .to_be_visible(timeout=GLANCE_MS))
        expect(tv.locator("#board-hand")).to_contain_text("Hand 1. Dealer: Ann.")

        # The scorer records hand 1 on the phone: the TV shows it, nobody touching it.
        bob_sweeps(scorer, taps)
        within_polls(tv, lambda: expect(tv.locator("#board-winner")).to_contain_text(
            "Bob & Eve win!", timeout=GLANCE_MS))
        expect(tv.get_by_label("Team B: 6 points")).to_be_visible()
        expect(tv.locator("#board-tally")).to_contain_text("Games won this evening")
        assert tv.url == link

        # The board alone: no form, no link into the club, and still no cookie.
        expect(tv.locator("form")).to_have_count(0)
        addresses = tv.evaluate(
            "[...document.querySelectorAll('[href], [src], [hx-get]')]"
            ".map((el) => el.getAttribute('href') ?? el.getAttribute('src')"
            " ?? el.getAttribute('hx-get'))")
        assert [address for address in addresses
                if not address.startswith(("/screen/", "/static/"))] == []
        assert context.cookies() == []
        if viewport == TV:
            assert set(tv.evaluate(BESIDE_THE_BOARD)) <= {"full-screen", "stay-awake-note"}
            tv.screenshot(path="/tmp/screen_link_tv.png")
        else:
            assert layout_problems(tv, "screen link's board", viewport["width"]) == []
    finally:
        context.close()
