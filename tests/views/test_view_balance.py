"""Balanced teams on the new-game page, and "Next game, new partners" for an evening.

Balancing fills the seats and stores nothing: the game starts, as ever, with "Start the
game". The expected splits are worked out here with openskill itself, by brute force.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from openskill.models import PlackettLuce

from scorekeeper.figures import balancing
from scorekeeper.figures.ratings import Rating
from scorekeeper.rules.table import left_of, team_of
from scorekeeper.store.models import Evening, Hand
from tests.members import client_as
from tests.views.view_helpers import (
    Game, GameSeat, Page, Player, calls_for, count, rows, seat_players, submit,
)

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
# Hand-made strengths: with equal sigmas only Ann & Eve, Dan & Bob, Cid & Fay make
# three pairs of one total (50), three teams alike: a third each.
MUS = {"Ann": 35, "Bob": 17, "Cid": 27, "Dan": 33, "Eve": 15, "Fay": 23}


def stored(db) -> dict[str, int]:
    db.expire_all()
    return {model.__name__: count(db, model) for model in (Game, GameSeat, Player, Hand, Evening)}


def seats_of(page: Page) -> list[str]:
    values = dict(page.form_posting_to("/games/new").fields())
    return [values[f"seat_{seat}"] for seat in range(1, 7)]


def preview_lines(page: Page) -> list[str]:
    return [li.text() for li in page.by_id("teams-preview").find_all("li")]


def split_buttons(page: Page):
    form = page.form_posting_to("/games/new")
    return form, [b for b in form.buttons() if b.get("name") == "balance"]


@pytest.fixture
def rated(client, db, monkeypatch, start_game):
    """The six on the roster (one game started, then abandoned so it rates nobody),
    rated by hand: the club's ratings are these."""
    game = start_game()
    assert client.post(f"/games/{game}/abandon", data={"confirm": "y"}).status_code < 400
    ids = {player.name: player.id for player in rows(db, Player)}
    ratings = {ids[name]: Rating(mu, 4.0, 5) for name, mu in MUS.items()}
    monkeypatch.setattr(balancing, "club_ratings", lambda session, club_id: ratings)
    return ratings


def test_balance_the_teams_seats_the_most_even_split_and_stores_nothing(client, db, rated,
                                                                        new_game_form):
    before = stored(db)
    page = Page(client.get("/games/new"))
    form, (button,) = split_buttons(page)
    assert button.text() == "Balance the teams" and button.get("value") == "best"
    assert button.get("type") == "submit" and "formnovalidate" in button.attrs

    response = client.post("/games/new", data=new_game_form(balance="best", first_dealer="3"))
    assert response.status_code == 200
    page = Page(response)
    # Ann & Eve, Bob & Dan, Cid & Fay, moving as few as can be: Dan and Eve swap chairs.
    assert seats_of(page) == ["Ann", "Bob", "Cid", "Eve", "Dan", "Fay"]
    assert preview_lines(page) == ["A: Ann & Eve, 33% to win", "B: Bob & Dan, 33% to win",
                                   "C: Cid & Fay, 33% to win"]
    assert "The most even of the 15 ways to split these six" in page.text
    assert "count as new players" not in page.text  # all six are rated
    # Cid was chosen to deal first: Cid still deals, from the seat Cid sits in.
    assert page.form_posting_to("/games/new").checked("first_dealer") == "3"
    assert stored(db) == before  # nothing written until the game starts

    # The next two most even of the fifteen, each a button seating it.
    model = PlackettLuce()
    favourites = sorted(max(model.predict_win(
        [[model.rating(mu=MUS[p], sigma=4.0) for p in team] for team in split]))
        for split in every_split(NAMES))
    form, buttons = split_buttons(page)
    assert len(buttons) == 2
    for button, favourite in zip(buttons, favourites[1:3]):
        assert f"{round(favourite * 100)}% to win" in button.text()

    # Started from the page as it is: the game is that split.
    response = submit(client, form)
    assert response.status_code == 303
    (game,) = [g for g in rows(db, Game) if g.abandoned_at is None]
    assert [p.name for _, p in sorted(seat_players(db, game.id).items())] == [
        "Ann", "Bob", "Cid", "Eve", "Dan", "Fay"]
    assert game.first_dealer == 3


def every_split(players):
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    for partner in rest:
        left = [p for p in rest if p != partner]
        for others in every_split(left):
            yield ((first, partner), *others)


def test_one_of_the_next_best_splits_is_seated_by_its_button(client, db, rated, new_game_form):
    page = Page(client.post("/games/new", data=new_game_form(balance="best")))
    form, (second, third) = split_buttons(page)
    wanted = second.text()
    page = Page(submit(client, form, second))
    assert page.status == 200
    assert "".join(preview_lines(page)) == wanted  # the button's lines, now the seats'
    # The most even is offered again, among the two others.
    _form, buttons = split_buttons(page)
    assert any("33% to win" in b.text() for b in buttons)
    assert stored(db)["Game"] == 1



def test_a_less_even_split_seated_is_not_called_the_most_even(client, rated, new_game_form):
    page = Page(client.post("/games/new", data=new_game_form(balance="best")))
    assert "The most even of the 15 ways" in page.text
    best = preview_lines(page)
    form, (_second, third) = split_buttons(page)
    assert third.text() != "".join(best)
    page = Page(submit(client, form, third))
    assert page.status == 200
    assert "The most even" not in page.text  # it is one of the others offered, no more
    # The most even, tapped again from among the others, says so again.
    form, buttons = split_buttons(page)
    best_button = next(b for b in buttons if b.text() == "".join(best))
    assert "The most even of the 15 ways" in submit(client, form, best_button).text

def test_balancing_twice_seats_the_same(client, rated, new_game_form):
    once = Page(client.post("/games/new", data=new_game_form(balance="best")))
    form = once.form_posting_to("/games/new")
    twice = Page(submit(client, form, changes={"balance": "best"}))
    assert seats_of(twice) == seats_of(once)
    assert preview_lines(twice) == preview_lines(once)


def test_players_without_games_count_as_new(client, db, new_game_form):
    """A real club: one game finished (Bob & Eve sweep), rated by the app; Gus is new.
    The split expected is worked out here with openskill from that one game."""
    game = client.post("/games/new", data=new_game_form(target="5"))
    game_id = int(game.headers["Location"].rsplit("/", 1)[1])
    response = client.post(f"/games/{game_id}/hands", data={
        "number": "1", "calls": calls_for(1, {2: 3}), "trump": "hearts",
        **dict.fromkeys(("high", "low", "right", "left", "joker", "game"), "B")})
    assert response.status_code == 303
    assert Page(client.get(f"/games/{game_id}")).scores() == {"A": 0, "B": 6, "C": 0}
    # B won; A and C, equal on 0, share the next rank.
    model = PlackettLuce()
    table = [["Ann", "Dan"], ["Bob", "Eve"], ["Cid", "Fay"]]
    rated_teams = model.rate([[model.rating(), model.rating()] for _ in range(3)],
                             ranks=[2, 1, 2])
    mine = {name: rating for team, ratings in zip(table, rated_teams)
            for name, rating in zip(team, ratings)}
    six = ["Ann", "Bob", "Cid", "Dan", "Eve", "Gus"]
    mine["Gus"] = model.rating()

    def favourite(split):
        return max(model.predict_win([[mine[p] for p in team] for team in split]))

    expected = min(favourite(split) for split in every_split(six))
    before = stored(db)
    page = Page(client.post("/games/new", data=new_game_form(names=six, balance="best")))
    assert page.status == 200
    assert "Players without a finished game count as new players." in page.text
    chances = [float(line.rsplit(", ", 1)[1].split("%")[0]) for line in preview_lines(page)]
    assert max(chances) == round(expected * 100)
    assert stored(db) == before


@pytest.mark.parametrize("names, message", [
    (["Ann", "Bob", "Cid", "Dan", "Eve", ""], "Seat 6 needs a player."),
    (["Ann", "Bob", "Cid", " ann ", "Eve", "Fay"], "ann can't sit twice (seats 1 and 4)."),
])
def test_balancing_without_six_different_players_says_why(client, db, new_game_form, names,
                                                          message):
    before = stored(db)
    response = client.post("/games/new", data=new_game_form(names=names, balance="best"))
    assert response.status_code == 422
    page = Page(response)
    (alert,) = page.alerts()
    assert message in alert
    assert seats_of(page) == names  # as typed, nothing moved
    assert stored(db) == before


@pytest.mark.parametrize("fields, message", [
    ({"balance": "12-34"}, "Choose one of the splits offered."),
    ({"balance": "14-25-36", "teams": "2x3"}, "Choose one of the splits offered."),
    ({"balance": "best", "teams": "4x4"}, "Teams: Not a valid choice."),
    ({"balance": "best", "first_dealer": "9"}, "First dealer: Not a valid choice."),
    ({"balance": "x" * 30}, "Split: "),
])
def test_a_split_that_is_not_one_is_refused_with_a_message(client, db, new_game_form, fields,
                                                           message):
    before = stored(db)
    response = client.post("/games/new", data=new_game_form(**fields))
    assert response.status_code == 422
    (alert,) = Page(response).alerts()
    assert message in alert
    assert stored(db) == before


def test_a_split_of_seats_is_seated_and_the_evening_choice_kept(client, db, new_game_form):
    first = client.post("/games/new", data=new_game_form(evening="new"))
    assert first.status_code == 303
    page = Page(client.post("/games/new", data=new_game_form(balance="135-246", teams="2x3",
                                                             evening="new")))
    assert page.status == 200
    assert seats_of(page) == NAMES  # already so: nobody moves
    assert preview_lines(page) == ["A: Ann & Cid & Eve, 50% to win",
                                   "B: Bob & Dan & Fay, 50% to win"]
    assert "The most even of the 10 ways" in page.text
    assert page.form_posting_to("/games/new").checked("evening") == "new"


def test_a_viewer_can_not_balance_or_start(app, db, client, new_game_form):
    client.post("/games/new", data=new_game_form())  # the roster and a game
    before = stored(db)
    viewer = client_as(app, "viewer")
    for fields in ({"balance": "best"}, {"balance": "14-25-36"}, {}):
        response = viewer.post("/games/new", data=new_game_form(**fields))
        assert response.status_code == 403
    assert stored(db) == before


# --- partners that rotate ------------------------------------------------------------

def sweep(client, db, game_id: int) -> None:
    """The first bidder's team bids 3 and takes all six: it reaches 5 and wins."""
    game = db.get(Game, game_id)
    bidder = left_of(game.first_dealer)
    team = team_of(bidder, game.teams)
    response = client.post(f"/games/{game_id}/hands", data={
        "number": "1", "calls": calls_for(game.first_dealer, {bidder: 3}), "trump": "hearts",
        **dict.fromkeys(("high", "low", "right", "left", "joker", "game"), team)})
    assert response.status_code == 303, response.get_data(as_text=True)[:500]


def partners_of(db, game_id: int) -> list[frozenset]:
    names = {seat: player.name for seat, player in seat_players(db, game_id).items()}
    return [frozenset({names[seat], names[seat + 3]}) for seat in (1, 2, 3)]


def test_five_games_of_new_partners_give_everyone_each_partner_once(client, db,
                                                                    new_game_form):
    response = client.post("/games/new", data=new_game_form(target="5", evening="new"))
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    evening_id = db.get(Game, game_id).evening_id
    partnered: Counter[frozenset] = Counter()
    for number in range(1, 6):
        db.expire_all()
        partnered.update(partners_of(db, game_id))
        sweep(client, db, game_id)
        page = Page(client.get(f"/evenings/{evening_id}"))
        links = [a for a in page.root.find_all("a") if a.text() == "Next game, new partners"]
        if number == 5:
            break
        (link,) = links
        before = stored(db)
        form_page = Page(client.get(link.get("href")))
        assert stored(db) == before  # the link only fills the form
        form = form_page.form_posting_to("/games/new")
        assert form.checked("evening") == str(evening_id)
        last = db.get(Game, game_id)
        started = submit(client, form)
        assert started.status_code == 303
        game_id = int(started.headers["Location"].rsplit("/", 1)[1])
        # The deal goes on to the left of the last dealer: the same player deals.
        db.expire_all()
        old = {s: p.name for s, p in seat_players(db, last.id).items()}
        new = {s: p.name for s, p in seat_players(db, game_id).items()}
        assert new[db.get(Game, game_id).first_dealer] == old[left_of(last.first_dealer)]
        assert db.get(Game, game_id).evening_id == evening_id
    assert set(partnered) == {frozenset(two) for two in combinations(NAMES, 2)}
    assert set(partnered.values()) == {1}
    # The evening page says who has partnered whom: fifteen pairs, once each.
    (together, ) = [ul for ul in page.root.find_all("ul", class_="pairs")
                    if ul.get("aria-labelledby") == "partnered-title"]
    pairs = [li.text() for li in together.find_all("li")]
    assert len(pairs) == 15 and all(pair.endswith(": 1 game") for pair in pairs)
    assert "Everyone at the table has partnered everyone else tonight." in page.text


def test_the_evening_page_lists_partners_not_yet_had(app, client, db, new_game_form):
    response = client.post("/games/new", data=new_game_form(
        target="5", evening="new", names=["Ann", "Bob", "Cid", "Dan", "Eve", "مریم"]))
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    evening_id = db.get(Game, game_id).evening_id
    page = Page(client.get(f"/evenings/{evening_id}"))
    # In play: its partners count already, but no next game is offered yet.
    assert not [a for a in page.root.find_all("a") if a.text() == "Next game, new partners"]
    assert "Ann & Dan: 1 game" in page.text
    assert page.by_id("partnered-title").text() == "Who has partnered whom"
    not_yet = [li.text() for li in page.root.find_all("ul", aria_labelledby="not-yet-title")[0]
               .find_all("li")]
    assert len(not_yet) == 12 and "Ann & Bob" in not_yet
    # A typed name is isolated, as everywhere.
    assert '<bdi translate=no>مریم</bdi>' in page.html
    sweep(client, db, game_id)
    owner_page = Page(client.get(f"/evenings/{evening_id}"))
    assert [a for a in owner_page.root.find_all("a") if a.text() == "Next game, new partners"]
    viewer_page = Page(client_as(app, "viewer").get(f"/evenings/{evening_id}"))
    assert not [a for a in viewer_page.root.find_all("a")
                if a.text() == "Next game, new partners"]
    # A closed evening starts no more games: nothing offered.
    assert client.post(f"/evenings/{evening_id}/close", data={}).status_code == 303
    closed = Page(client.get(f"/evenings/{evening_id}"))
    assert not [a for a in closed.root.find_all("a") if a.text() == "Next game, new partners"]


def test_the_game_over_card_offers_new_partners_and_says_who_sits_with_whom(
        app, client, db, new_game_form):
    response = client.post("/games/new", data=new_game_form(target="5", evening="new"))
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    evening_id = db.get(Game, game_id).evening_id
    before = partners_of(db, game_id)
    sweep(client, db, game_id)
    page = Page(client.get(f"/games/{game_id}"))
    (link,) = [a for a in page.root.find_all("a") if a.text() == "Next game, new partners"]
    evening_page = Page(client.get(f"/evenings/{evening_id}"))
    (same,) = [a for a in evening_page.root.find_all("a") if a.text() == "Next game, new partners"]
    assert link.get("href") == same.get("href")  # one offer, wherever it is made
    # The card says who sits with whom: the form behind the link, team by team (3x2:
    # seats 1 & 4 are A), and no one with last game's partner.
    form = Page(client.get(link.get("href"))).form_posting_to("/games/new")
    seats = dict(form.fields())
    told = [li.text() for li in page.root.find("ul", class_="new-partners").find_all("li")]
    assert told == [f"{team}: {seats[f'seat_{one}']} & {seats[f'seat_{one + 3}']}"
                    for team, one in (("A", 1), ("B", 2), ("C", 3))]
    now = [frozenset({seats[f"seat_{one}"], seats[f"seat_{one + 3}"]}) for one in (1, 2, 3)]
    assert not set(now) & set(before)
    # The same seats and new seats are still offered beside it.
    texts = [a.text() for a in page.root.find_all("a")]
    assert "Next game, same seats" in texts and "New game, new seats" in texts
    # Watchers start nothing; a closed evening starts no more games.
    viewer_page = Page(client_as(app, "viewer").get(f"/games/{game_id}"))
    assert viewer_page.root.find("ul", class_="new-partners") is None
    assert client.post(f"/evenings/{evening_id}/close", data={}).status_code == 303
    closed = Page(client.get(f"/games/{game_id}"))
    assert "Next game, new partners" not in closed.text
