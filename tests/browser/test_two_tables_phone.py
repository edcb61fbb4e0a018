"""Twelve in for tonight, on the organiser's 390 px phone: two tables of six, nobody
sitting out, each table's game started from the proposal and its game over leading back
to the next round, the table boards following their own table with a line for the other,
one gone home (a table of six and one of five for themselves) and back, and a second
round; and the evening board on a viewer's 390 px phone, following both tables through
it by itself."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from scorekeeper.store.models import Attendance, Member, utcnow
from tests.browser.phones import GLANCE_MS, within_polls
from tests.browser.test_axe import violations
from tests.browser.table_steps import (
    AFTER_HAND_1, HAND_1, Taps, choice_label, choose, layout_problems, name_trump,
    point_group, record, tally,
)

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Joe", "Kim",
         "Lea"]


def all_say_in(club, evening_id: int, names: list[str] = NAMES) -> None:
    """Members, each saying "I'm in", in the order of ``names`` (twelve unless told)."""
    for name in names:
        club.member("viewer", name)
    with Session(club.app.extensions["db_engine"]) as session:
        members = session.exec(select(Member).where(Member.club_id == club.id,
                                                    Member.name.in_(names))).all()
        by_name = {member.name: member for member in members}
        for minute, name in enumerate(names):
            session.add(Attendance(evening_id=evening_id, member_id=by_name[name].id,
                                   coming=True, said_at=utcnow().replace(minute=minute)))
        session.commit()


def start_table(page: Page, evening_url: str, number: int) -> tuple[str, str]:
    """Tap "Start table N" on the evening's page, play to 5, start: the game's address,
    and who sits in seat 2."""
    page.goto(evening_url)
    page.get_by_role("link", name=f"Start table {number}", exact=True).click()
    page.get_by_label("Play to", exact=True).fill("5")
    seat_two = page.get_by_role("combobox", name="Seat 2", exact=True).input_value()
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    return page.url, seat_two


def bid_four(page: Page, taps: Taps, bidder: str, suit: str) -> None:
    """Seat 2 (``bidder``, team B) bids 4 in ``suit``, everyone else passing."""
    choose(page, page.get_by_role("group", name=bidder, exact=True)
           .get_by_role("radio", name="Bid 4", exact=True), taps)
    name_trump(page, taps, suit)


def sweep(page: Page, bidder: str) -> None:
    """Seat 2 (team B) bids 4 in spades and takes all six: B wins to 5."""
    taps = Taps()
    bid_four(page, taps, bidder, "Spades")
    taps(choice_label(point_group(page, "The rest").get_by_role(
        "radio", name=re.compile(r"^B\b"))))
    record(page, taps, 1)


def hand_one(page: Page, bidder: str) -> None:
    """Seat 2 (team B) bids 4 in hearts and makes it; C takes Joker and Game: B 4, C 2,
    nobody out yet."""
    taps = Taps()
    bid_four(page, taps, bidder, "Hearts")
    tally(page, taps, HAND_1)
    record(page, taps, 1)


def expect_table(board: Page, number: int, scores: dict[str, int],
                 line: str | re.Pattern) -> None:
    """The evening board's table ``number``: its teams' scores and the line under them."""
    table = board.locator(f"#table-{number}")
    for team, score in scores.items():
        expect(table.get_by_label(f"Team {team}: {score} points", exact=True)).to_have_text(
            str(score))
    expect(table.locator(".board-line")).to_have_text(line)


def test_twelve_at_two_tables_through_two_rounds(page: Page, viewer: Page, club,
                                                   live_server: str, tmp_path):
    page.goto(f"{live_server}/evenings")
    page.get_by_label("Date", exact=True).fill(utcnow().date().isoformat())
    page.get_by_role("button", name="Add the evening").click()
    expect(page.get_by_role("heading", name="Who is coming")).to_be_visible()
    evening_url = page.url
    all_say_in(club, int(evening_url.rsplit("/", 1)[1]))
    # The home page shows tonight's evening, and the organiser's own answer to give.
    page.goto(f"{live_server}/")
    expect(page.locator("#next-evening #tables-tonight")).to_have_text(
        "2 tables: 6 + 6 players. Sitting out: 0.")
    assert layout_problems(page, "home with tonight's evening", width=390) == []
    assert violations(page) == []
    page.goto(evening_url)
    expect(page.locator("#tables-tonight")).to_have_text("2 tables: 6 + 6 players. Sitting out: 0.")
    expect(page.locator("#sitting-out")).to_have_count(0)
    assert layout_problems(page, "next round", width=390) == []

    games = [start_table(page, evening_url, number) for number in (1, 2)]
    for url, seat_two in games:  # each table's first game, won at once
        page.goto(url)
        sweep(page, seat_two)
        expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    # Game over leads to the evening's next round first, where the tables mix: not to
    # the same six's next game.
    expect(page.locator("#hand-entry a.button").first).to_have_text("Next round")
    assert layout_problems(page, "game over at two tables", width=390) == []
    page.get_by_role("link", name="Next round", exact=True).click()
    expect(page).to_have_url(f"{evening_url}#next-round")
    expect(page.locator("#next-round")).to_be_in_viewport()
    expect(page.locator("#sitting-out")).to_have_count(0)
    listed = page.locator("ul.game-list li")
    expect(listed).to_have_count(2)
    expect(listed.nth(1)).to_contain_text("Table 2 · Game")

    # Lea goes home: one tap, and the next round seats the eleven here, a table of six
    # and one of five each for themselves; another tap undoes it.
    page.get_by_role("button", name="Lea went home", exact=True).click()
    expect(page.get_by_text("Lea is gone for the night.", exact=True)).to_be_visible()
    expect(page.locator("#next-table-2-layout")).to_have_text("5 players, each for themselves")
    expect(page.locator("#sitting-out")).to_have_count(0)
    expect(page.locator("#next-round")).not_to_contain_text("Lea")
    assert layout_problems(page, "gone for the night", width=390) == []
    assert violations(page) == []
    page.get_by_role("button", name="Lea is back", exact=True).click()
    expect(page.locator("#next-table-2-layout")).to_have_text("6 players in three pairs")

    # Table 2's board: its own game, and a line for table 1.
    page.get_by_role("link", name="Table 2's board").click()
    expect(page.locator("#board-table")).to_have_text("Table 2")
    expect(page.locator("#other-tables")).to_contain_text("Table 1, game")
    game_two = re.search(r"/games/(\d+)", games[1][0]).group(1)
    expect(page.locator("#board")).to_have_attribute("data-game", game_two)

    # Every table at once, from table 2's board: on a viewer's phone, as the next round
    # starts and plays, nobody touching it.
    page.get_by_role("link", name="All tables", exact=True).click()
    expect(page).to_have_url(re.compile(r"/evenings/\d+/tables$"))
    viewer.goto(page.url)
    for number in (1, 2):
        expect(viewer.locator(f"#table-{number} .board-line")).to_contain_text(
            re.compile(r"^over · \w+\s&\s\w+ win!$"))
    expect(viewer.locator("#board-tally")).to_contain_text("Games won this evening")
    viewer.evaluate("window.notReloaded = true")
    again = [start_table(page, evening_url, number) for number in (1, 2)]
    for number, (url, _seat_two) in enumerate(again, start=1):
        game = re.search(r"/games/(\d+)", url).group(1)
        table = viewer.locator(f"#table-{number}")
        within_polls(viewer, lambda table=table, game=game: expect(table).to_have_attribute(
            "data-game", game, timeout=GLANCE_MS))
        expect_table(viewer, number, {"A": 0, "B": 0, "C": 0},
                     re.compile(r"^Hand 1\. Dealer: \w+\.$"))
    for number, (url, seat_two) in enumerate(again, start=1):  # a hand at each table
        page.goto(url)
        hand_one(page, seat_two)
        scored = viewer.locator(f"#table-{number}").get_by_label("Team B: 4 points", exact=True)
        within_polls(viewer, lambda scored=scored: expect(scored).to_be_visible(
            timeout=GLANCE_MS))
        expect_table(viewer, number, AFTER_HAND_1, re.compile(r"^Hand 2\. Dealer: \w+\.$"))
    expect_table(viewer, 1, AFTER_HAND_1, re.compile(r"^Hand 2\."))  # and table 1 stays
    assert viewer.evaluate("window.notReloaded") is True
    assert layout_problems(viewer, "every table", width=390) == []
    viewer.screenshot(path=str(tmp_path / "every-table.png"), full_page=True)
    viewer.context.add_cookies([{"name": "lang", "value": "fa", "url": live_server}])
    viewer.reload()
    expect(viewer.locator("html")).to_have_attribute("dir", "rtl")
    assert layout_problems(viewer, "every table, in Persian", width=390) == []
    viewer.screenshot(path=str(tmp_path / "every-table-fa.png"), full_page=True)
