"""An evening's recap shared from a 360 px phone: from the game just won, one tap on
Share hands the phone's share sheet (stubbed here: it records what it is given) the
picture as a PNG and the lines as text; a phone without a share sheet gets the download
and the copy. The picture is looked at in English and in Persian, and on a 390 px phone
it is the picture drawn for a phone's chat: upright, 1080 px wide, shown whole."""
from __future__ import annotations

import struct

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phones import until
from tests.browser.table_steps import Taps, expect_scores, layout_problems, start_game
from tests.browser.test_persian import fa
from tests.browser.test_record_answer import sweep

pytestmark = pytest.mark.browser

# The phone's share sheet, standing in: it keeps what it was asked to share.
SHARE_SHEET = """
window.sharedWith = null;
navigator.share = (data) => {
  window.sharedWith = {text: data.text,
                       files: (data.files || []).map((f) => ({name: f.name, type: f.type, size: f.size}))};
  return Promise.resolve();
};
navigator.canShare = (data) => true;
"""
# Stops (".", ",") that begin a line of the recap's page: each text starting with one
# whose first character sits at its line's start edge.
STOPS_AT_LINE_START = """() => [...document.querySelectorAll('#recap-lines p')].flatMap((line) => {
  const start = line.getBoundingClientRect().left, found = [];
  const walk = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const text = walk.currentNode;
    if (!/^[.,;:!?]/.test(text.data)) continue;
    const range = document.createRange();
    range.setStart(text, 0); range.setEnd(text, 1);
    if (Math.abs(range.getBoundingClientRect().left - start) < 1) found.push(line.innerText);
  }
  return found;
})"""
PICTURE_DRAWN = "() => { const img = document.querySelector('figure img'); " \
                "return img && img.complete && img.naturalWidth > 0 ? img.naturalWidth : 0; }"
PICTURE_SHOWN = """() => { const img = document.querySelector('figure img'),
  box = img.getBoundingClientRect();
  return {width: img.naturalWidth, height: img.naturalHeight, left: box.left,
          right: box.right, shown: box.width, tall: box.height}; }"""


def play_an_evening(page: Page, base: str) -> None:
    """Bob (B) bids 4 and B takes all six, twice: B 12 of 9, B wins."""
    taps = Taps()
    start_game(page, base, taps, target=9)
    sweep(page, taps, 1, bidder=2)
    sweep(page, taps, 2, bidder=5)
    expect_scores(page, {"A": 0, "B": 12, "C": 0})


def test_the_recap_is_shared_as_a_picture_and_lines(small_page: Page, live_server: str, tmp_path):
    page = small_page
    page.add_init_script(SHARE_SHEET)
    play_an_evening(page, live_server)
    page.get_by_role("link", name="Share the evening", exact=True).click()  # the game is over
    expect(page.get_by_role("heading", level=1)).to_contain_text("in a picture")
    lines = page.locator("#recap-lines p")
    expect(lines.nth(1)).to_contain_text("Bob & Eve won, A 0 · B 12 · C 0.")
    page.wait_for_function(PICTURE_DRAWN)
    assert layout_problems(page, "recap") == []
    assert page.evaluate(STOPS_AT_LINE_START) == []  # "C 0" and its "." on one line
    page.screenshot(path=str(tmp_path / "recap-en.png"), full_page=True)

    share = page.get_by_role("button", name="Share", exact=True)
    expect(share).to_be_visible()
    share.click()
    expect(page.get_by_role("status")).to_have_text("Shared.")
    shared = page.evaluate("window.sharedWith")
    assert shared["text"].splitlines()[0].startswith("Evening of")
    assert "All six points" in shared["text"]
    assert [(f["name"].endswith(".png"), f["type"]) for f in shared["files"]] == \
        [(True, "image/png")] and shared["files"][0]["size"] > 1000

    page.context.add_cookies([{"name": "lang", "value": "fa", "url": live_server}])
    page.reload()
    expect(page.locator("#recap-lines p").nth(0)).to_contain_text(fa("Games won: %(players)s.",
                                                                     players="").rstrip("."))
    address = page.get_by_role("link", name=fa("Download the picture")).get_attribute("href")
    png = page.request.get(live_server + address)
    (tmp_path / "recap-fa.png").write_bytes(png.body())
    assert png.headers["content-type"] == "image/png"


def test_share_tapped_before_the_picture_is_here_says_so_and_shares_nothing(
        page: Page, live_server: str):
    page.add_init_script(SHARE_SHEET)
    held = []
    page.route("**/recap.png", lambda route: held.append(route))  # the picture on its way
    play_an_evening(page, live_server)
    page.get_by_role("link", name="Share the evening", exact=True).click()
    share = page.get_by_role("button", name="Share", exact=True)
    share.click()
    expect(page.locator("#recap-said")).to_have_text(
        "The picture is still on its way: tap Share again in a moment.")
    assert page.evaluate("window.sharedWith") is None  # not the text alone, silently
    until(page, lambda: held, "the picture asked for")
    held[0].continue_()
    page.wait_for_function("() => { document.getElementById('share-recap').click(); "
                           "return window.sharedWith !== null; }")
    assert [f["type"] for f in page.evaluate("window.sharedWith")["files"]] == ["image/png"]


def test_without_a_share_sheet_the_picture_downloads(page: Page, live_server: str, tmp_path):
    page.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
    play_an_evening(page, live_server)
    page.get_by_role("link", name="Games won this evening").click()
    page.get_by_role("link", name="Share the evening", exact=True).click()
    expect(page.get_by_role("button", name="Share", exact=True)).to_be_hidden()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the picture", exact=True).click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.suffix == ".png" and saved.read_bytes()[:4] == b"\x89PNG"


def test_on_a_phone_the_picture_is_drawn_for_its_chat_and_shown_whole(
        page: Page, live_server: str, tmp_path):
    play_an_evening(page, live_server)  # a 390 x 844 phone
    page.get_by_role("link", name="Share the evening", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("in a picture")
    page.wait_for_function(PICTURE_DRAWN)  # asked while the game's page may still be shown
    picture = page.evaluate(PICTURE_SHOWN)
    assert picture["width"] >= 1080 and picture["height"] > picture["width"]  # as drawn
    assert 0 <= picture["left"] and picture["right"] <= 390  # shown across the phone
    assert picture["tall"] == pytest.approx(
        picture["shown"] * picture["height"] / picture["width"], abs=2)  # not squeezed
    page.screenshot(path=str(tmp_path / "recap-390.png"), full_page=True)
    download = page.get_by_role("link", name="Download the picture", exact=True)
    png = page.request.get(live_server + download.get_attribute("href")).body()
    assert struct.unpack(">II", png[16:24]) == (picture["width"], picture["height"])
