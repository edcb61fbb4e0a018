"""An evening with a substitute: each team's win counts for everyone who sat for it, and
each partnership that sat together at one hand at least counts once for the game, in
"Games won", "Partners tonight", the next game's new partners and the game page's line.

Game one is tests/test_substitutes.py's, laid out and worked out by hand there (seat 1:
Ann hands 1-2, Gil 3-5, Ivy 6-7; seat 4: Dan 1-3, Hal 4-7; Cid & Fay win). Game two (to
5, Gil deals first): Hal (B) bids 3 and takes all six points, so Hal & Eve win at once.
Every figure below is counted from those two layouts alone.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations

from scorekeeper.figures.teams import next_partners, seated, split_of
from scorekeeper.rules import SEATS
from scorekeeper.store.models import Game
from tests.test_substitutes import HANDS, SUBSTITUTES, TEAM, WINNER, who
from tests.views.test_view_substitutes import made, record
from tests.views.view_helpers import Page, calls_for

SECOND = ["Gil", "Hal", "Cid", "Bob", "Eve", "Fay"]  # seats 1 to 6: A Gil & Bob, B Hal & Eve
SECOND_HAND = (calls_for(1, {2: 3}), "hearts", "BBBBB", "B")
SECOND_WINNER = "B"


# --- the figures, counted from the layouts above ------------------------------------------

def games_sat() -> list[tuple[list[dict[int, str]], str]]:
    """Each game as who sat in each seat at each of its hands, and the team that won."""
    first = [{seat: who(seat, number) for seat in SEATS} for number in range(1, len(HANDS) + 1)]
    return [(first, WINNER), ([dict(zip(SEATS, SECOND))], SECOND_WINNER)]


def team_seats(team: str) -> list[int]:
    return [seat for seat in SEATS if TEAM[seat] == team]


def expected_tally() -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """Games won per player and per partnership (a line-up, once a game), most first."""
    players: Counter[str] = Counter()
    partnerships: Counter[str] = Counter()
    for hands, winner in games_sat():
        for team in "ABC":
            won = int(team == winner)
            for name in {sat[seat] for sat in hands for seat in team_seats(team)}:
                players[name] += won
            for line_up in {" & ".join(sorted(sat[seat] for seat in team_seats(team)))
                            for sat in hands}:
                partnerships[line_up] += won
    order = lambda item: (-item[1], item[0].casefold())  # noqa: E731
    return sorted(players.items(), key=order), sorted(partnerships.items(), key=order)


def expected_partners() -> Counter[frozenset[str]]:
    """How many games each two were partners in: in one team at one hand at least."""
    together: Counter[frozenset[str]] = Counter()
    for hands, _winner in games_sat():
        together.update({frozenset((sat[one], sat[other])) for sat in hands
                         for team in "ABC" for one, other in combinations(team_seats(team), 2)})
    return together


def test_the_counted_figures_are_those_of_the_layouts():
    by_player, by_partnership = expected_tally()
    assert dict(by_player) == {"Cid": 1, "Fay": 1, "Hal": 1, "Eve": 1, "Ann": 0, "Bob": 0,
                               "Dan": 0, "Gil": 0, "Ivy": 0}
    assert dict(by_partnership) == {
        "Cid & Fay": 1, "Eve & Hal": 1, "Ann & Dan": 0, "Dan & Gil": 0, "Gil & Hal": 0,
        "Hal & Ivy": 0, "Bob & Eve": 0, "Bob & Gil": 0}
    assert expected_partners()[frozenset(("Gil", "Hal"))] == 1  # hands 4-5 of game one
    assert expected_partners()[frozenset(("Ann", "Gil"))] == 0  # one seat, never together


# --- through the pages --------------------------------------------------------------------

def new_game(client, new_game_form, evening: str, **fields) -> int:
    response = client.post("/games/new", data=new_game_form(evening=evening, **fields))
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return int(response.headers["Location"].rsplit("/", 1)[1])


def the_evening(client, db, new_game_form, play) -> tuple[int, int, int]:
    """Game one with its substitutes, each made before the hand they play first, then
    game two at the same evening; the evening's id and the two games'."""
    one = new_game(client, new_game_form, "new", target="11")
    coming = {number: (seat, name) for seat, number, name in SUBSTITUTES}
    for number in range(1, len(HANDS) + 1):
        if number in coming:
            made(client, one, coming[number][0], number, coming[number][1])
        record(client, one, number)
    evening = db.get(Game, one).evening_id
    two = new_game(client, new_game_form, str(evening), names=SECOND, target="5")
    play(two, 1, *SECOND_HAND)
    return evening, one, two


def tally_replays(page: Page) -> list[list[tuple[str, int]]]:
    """The evening page's games won: the night's ranking's players (by name: its order
    is tested in test_view_night_ranking.py) and the "Per partnership" rows, each
    (names, games won)."""
    ranking, partnerships = page.root.find_all("table", class_="tally-table")
    won = ranking.find("thead").text(gaps=True).split().index("Won")
    players = [(row.find("th").text(), int(row.find_all("td")[won - 1].text()))
               for row in ranking.find("tbody").find_all("tr")]
    return [sorted(players, key=lambda item: item[0].casefold()),
            [(row.find("th").text(), int(row.find("td").text()))
             for row in partnerships.find("tbody").find_all("tr")]]


def pairs(items) -> list[str]:
    return [item.text() for item in items.find_all("li")]


def test_the_evening_counts_everyone_who_sat_for_a_team(client, db, new_game_form, play):
    evening, _one, two = the_evening(client, db, new_game_form, play)
    page = Page(client.get(f"/evenings/{evening}"))
    assert "2 games finished." in page.text
    by_player, by_partnership = expected_tally()
    assert tally_replays(page) == [sorted(by_player, key=lambda item: item[0].casefold()),
                                   by_partnership]
    # Partners tonight: each two once a game, however few hands they sat together.
    together = expected_partners()
    met = sorted(((tuple(sorted(two_, key=str.casefold)), games)
                  for two_, games in together.items()),
                 key=lambda item: (-item[1], [name.casefold() for name in item[0]]))
    assert pairs(page.root.find("ul", **{"aria-labelledby": "partnered-title"})) == [
        f"{one} & {other}: {games} game{'s' if games > 1 else ''}"
        for (one, other), games in met]
    at_table = sorted(SECOND, key=str.casefold)
    assert pairs(page.root.find("ul", **{"aria-labelledby": "not-yet-title"})) == [
        f"{one} & {other}" for one, other in combinations(at_table, 2)
        if not together[frozenset((one, other))]]
    # The next game's new partners rotate away from every partnership of tonight.
    (link,) = [a for a in page.root.find_all("a") if a.text() == "Next game, new partners"]
    chairs = tuple(next_partners(SECOND, "3x2", together))
    expected = seated(chairs, "3x2", SECOND)
    form = Page(client.get(link.get("href")))
    values = {i.get("name"): i.get("value") for i in form.root.find_all("input")
              if i.get("type") in (None, "text")}
    assert tuple(values[f"seat_{seat}"] for seat in SEATS) == expected
    assert not any(together[frozenset(team)] for team in split_of(expected, "3x2"))
    # The game page's line: the evening's games won, player by player.
    line = Page(client.get(f"/games/{two}")).root.find("p", class_="tonight")
    assert line.text() == "Games won this evening: " + " · ".join(
        f"{name} {won}" for name, won in expected_tally()[0])


def test_a_substitute_taken_back_leaves_the_evening_as_if_they_never_sat(
        client, db, new_game_form, play):
    evening, one, _two = the_evening(client, db, new_game_form, play)
    fix = Page(client.get(f"/games/{one}/fix"))
    form, _button = fix.button("Take back Gil in seat 1…")
    checked = Page(client.post(form.action, data=dict(form.fields())))
    form, _button = checked.button("Make this change")
    assert client.post(form.action, data=dict(form.fields())).status_code == 303
    by_player, by_partnership = tally_replays(Page(client.get(f"/evenings/{evening}")))
    # Ann sat seat 1 to hand 5 now: Ann & Dan, then Ann & Hal; Gil is game two's only.
    assert dict(by_player)["Gil"] == 0 and dict(by_player)["Ann"] == 0
    assert {names for names, _won in by_partnership} == {
        "Cid & Fay", "Eve & Hal", "Ann & Dan", "Ann & Hal", "Hal & Ivy", "Bob & Eve",
        "Bob & Gil"}
