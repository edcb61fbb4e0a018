"""Evenings: games gathered by night, the history of evenings, and each night's tally.

Hand-worked games (target 5, three pairs, Ann deals first): "B sweeps" is Bob (B)
bidding 3 and taking all six points: B 6 >= 5, so Bob & Eve win at hand 1.
"""
from __future__ import annotations

from datetime import date, timedelta, timezone

from sqlmodel import Session, select

from scorekeeper.store.models import Evening, Game, Player, utcnow
from tests.members import client_as
from tests.views.view_helpers import Page, calls_for, hands_of, submit

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
B_SWEEPS = (calls_for(1, {2: 3}), "hearts", "BBBBB", "B")  # with Ann dealing


def new_game(client, new_game_form, **fields) -> int:
    response = client.post("/games/new", data=new_game_form(target="5", **fields))
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return int(response.headers["Location"].rsplit("/", 1)[1])


def has_link(page: Page, text: str) -> bool:
    return any(a.text() == text for a in page.root.find_all("a"))


def evening_of(db, game_id) -> Evening:
    db.expire_all()
    return db.get(Evening, db.get(Game, game_id).evening_id)


def test_the_first_game_opens_a_new_evening_with_its_place(client, db, new_game_form):
    page = Page(client.get("/games/new"))
    assert "A new evening, today" in page.text
    game = new_game(client, new_game_form, evening="new", place="  The  Anchor ", note="Cup")
    evening = evening_of(db, game)
    assert evening.played_on == date.today() or evening.played_on == date.today() - timedelta(1)
    assert (evening.place, evening.note) == ("The Anchor", "Cup")


def test_the_next_game_is_offered_tonights_evening_and_joins_it(client, db, new_game_form):
    first = new_game(client, new_game_form, evening="new")
    tonight = evening_of(db, first)
    page = Page(client.get("/games/new"))
    assert "Tonight's evening" in page.text and "1 game so far" in page.text
    second = new_game(client, new_game_form, evening=str(tonight.id))
    assert evening_of(db, second).id == tonight.id
    assert "2 games so far" in Page(client.get("/games/new")).text
    third = new_game(client, new_game_form, evening="new")  # or a new evening after all
    assert evening_of(db, third).id != tonight.id
    assert len(db.exec(select(Evening)).all()) == 2


def test_another_evening_than_tonights_cannot_be_chosen(client, db, new_game_form):
    new_game(client, new_game_form, evening="new")
    response = client.post("/games/new", data=new_game_form(target="5", evening="999"))
    assert response.status_code == 422
    (alert,) = Page(response).alerts()
    assert alert.startswith("Evening: ")
    assert len(db.exec(select(Game)).all()) == 1


def test_the_evening_page_tallies_games_won_per_player_and_partnership(client, db,
                                                                     new_game_form, play):
    one = new_game(client, new_game_form, evening="new")
    play(one, 1, *B_SWEEPS)  # Bob & Eve win game one
    two = new_game(client, new_game_form, evening=str(evening_of(db, one).id))
    play(two, 1, *B_SWEEPS)  # and game two
    # Game three: Eve and Bob swap seats (2 <-> 5), still partners; Dan sits with Ann.
    three = new_game(client, new_game_form, evening=str(evening_of(db, one).id),
                     names=["Ann", "Eve", "Cid", "Dan", "Bob", "Fay"])
    play(three, 1, calls_for(1, {2: 3}), "clubs", "AAAAA", "A")  # A: 5 + Game A = 6
    four = new_game(client, new_game_form, evening=str(evening_of(db, one).id))  # in play
    page = Page(client.get(f"/evenings/{evening_of(db, one).id}"))
    text = page.text
    assert "3 games finished (1 still in play)." in text
    rows = [" ".join(cell.text() for cell in r.iter() if cell.tag in ("th", "td"))
            for r in page.root.find_all("tr")]
    # The night's ranking (place, player, won, played, average score): Bob and Eve won
    # 2 of 3 (B 6, 6, then set −3 in game three: 3.0 a game); Ann and Dan 1 of 3 (A 0,
    # 0, 6: 2.0); Cid and Fay none (C 0 each time). Game four is in play: not counted.
    assert rows[1:7] == ["1 Bob 2 3 3.0", "1 Eve 2 3 3.0", "3 Ann 1 3 2.0", "3 Dan 1 3 2.0",
                         "5 Cid 0 3 0.0", "5 Fay 0 3 0.0"]
    # Per partnership: Bob & Eve 2 (whichever seats), Ann & Dan 1, and Cid & Fay, who
    # sat together all evening and won nothing, 0.
    assert rows[8:] == ["Bob & Eve 2", "Ann & Dan 1", "Cid & Fay 0"]
    assert "Bob & Eve won." in text and "B reached 5: B wins." in text
    assert f"Game {four}" in text and "in play, hand 1" in text
    assert len(hands_of(db, three)) == 1


def test_history_lists_evenings_newest_first_a_page_at_a_time(client, db, new_game_form):
    club_id = db.get(Game, new_game(client, new_game_form, evening="new")).club_id
    first_day = date(2025, 1, 1)
    for offset in range(25):
        db.add(Evening(club_id=club_id, played_on=first_day + timedelta(days=offset)))
    db.commit()
    page = Page(client.get("/evenings"))
    links = [a.text() for a in page.root.find_all("a") if "/evenings/" in (a.get("href") or "")]
    assert len(links) == 20
    assert links[0].startswith(date.today().strftime("%b")[:3]) or "2026" in links[0]
    assert links[1].startswith("Jan 25, 2025")  # then the newest of the old ones
    assert has_link(page, "Older evenings") and not has_link(page, "Newer evenings")
    page = Page(client.get("/evenings?page=2"))
    links = [a.text() for a in page.root.find_all("a") if "/evenings/" in (a.get("href") or "")]
    assert [link.split(" ·")[0] for link in links] == [
        f"Jan {day}, 2025" for day in range(6, 0, -1)]
    assert has_link(page, "Newer evenings") and not has_link(page, "Older evenings")
    for bad in ("0", "-1", "abc", "99999999999"):
        assert client.get(f"/evenings?page={bad}").status_code == 200


def test_history_filters_by_player(client, db, new_game_form):
    new_game(client, new_game_form, evening="new")
    others = ["Gus", "Hal", "Ida", "Joe", "Kim", "Lea"]
    new_game(client, new_game_form, evening="new", names=others)
    page = Page(client.get("/evenings"))
    assert page.text.count("1 game") == 2
    gus = next(o for o in page.root.find_all("option") if o.text() == "Gus").get("value")
    page = Page(client.get(f"/evenings?player={gus}"))
    links = [a for a in page.root.find_all("a") if "/evenings/" in (a.get("href") or "")]
    assert len(links) == 1
    evening_id = int(links[0].get("href").rsplit("/", 1)[1])
    assert "Gus" in Page(client.get(f"/evenings/{evening_id}")).text
    assert "Ann" not in Page(client.get(f"/evenings/{evening_id}")).text


def test_next_game_same_seats_fills_the_form_and_the_deal_goes_on(client, db, new_game_form,
                                                                  play):
    game = new_game(client, new_game_form, evening="new")
    play(game, 1, *B_SWEEPS)  # Ann dealt the winning hand: Bob deals next
    page = Page(client.get(f"/games/{game}"))
    (link,) = [a for a in page.root.find_all("a") if a.text() == "Next game, same seats"]
    form_page = Page(client.get(link.get("href")))
    values = {i.get("name"): i.get("value") for i in form_page.root.find_all("input")
              if i.get("type") in (None, "text")}
    assert [values[f"seat_{seat}"] for seat in range(1, 7)] == NAMES
    checked = {i.get("name"): i.get("value") for i in form_page.root.find_all("input")
               if i.get("type") == "radio" and "checked" in i.attrs}
    assert checked["first_dealer"] == "2"
    assert checked["evening"] == str(evening_of(db, game).id)


def test_an_evening_of_another_number_is_not_found(client):
    assert client.get("/evenings/999").status_code == 404
    assert client.get("/evenings/99999999999").status_code == 404


def test_a_form_without_an_evening_joins_tonights(client, db, new_game_form):
    first = new_game(client, new_game_form, evening="new")
    second = new_game(client, new_game_form)  # the field left out
    assert evening_of(db, second).id == evening_of(db, first).id


def test_an_evening_that_runs_past_midnight_is_still_tonights(client, db, new_game_form):
    from datetime import datetime, time, timezone

    game_id = new_game(client, new_game_form, evening="new")
    game, evening = db.get(Game, game_id), evening_of(db, game_id)
    now = datetime.now(timezone.utc)
    evening.played_on = now.date() - timedelta(days=1)  # the evening began yesterday...
    evening.created_at = datetime.combine(evening.played_on, time(20), timezone.utc)
    game.created_at = now - timedelta(hours=2)  # ...and its last game two hours ago
    db.add_all([evening, game])
    db.commit()
    assert "Tonight's evening" in Page(client.get("/games/new")).text
    game.created_at = now - timedelta(hours=13)  # a game half a day ago: a new evening
    db.add(game)
    db.commit()
    page = Page(client.get("/games/new"))
    assert "Tonight's evening" not in page.text and "A new evening, today" in page.text


def test_an_evening_already_played_is_never_tonights(client, db, new_game_form):
    """An evening made after its day (a club's history from paper) with a game typed in
    just now is not tonight's: tonight's next game opens an evening of today."""
    game_id = new_game(client, new_game_form, evening="new")
    evening = evening_of(db, game_id)
    evening.played_on = utcnow().date() - timedelta(days=1)  # made today, for yesterday
    db.add(evening)
    db.commit()
    page = Page(client.get("/games/new"))
    assert "Tonight's evening" not in page.text and "A new evening, today" in page.text
    tonight = evening_of(db, new_game(client, new_game_form))
    assert tonight.id != evening.id and tonight.played_on == utcnow().date()


def test_a_finished_game_of_a_past_evening_is_kept_as_it_was(client, db, new_game_form, play):
    game_id = new_game(client, new_game_form, evening="new")
    play(game_id, 1, *B_SWEEPS)
    evening = evening_of(db, game_id)
    page = Page(client.get(f"/games/{game_id}"))
    assert page.has_button("Undo hand 1")  # tonight's game: still open to corrections
    evening.played_on = date(2025, 5, 1)
    game = db.get(Game, game_id)
    game.created_at = game.created_at.replace(year=2025, month=5, day=1)
    game.changed_at = game.created_at  # nothing changed in it since that night
    db.add_all([evening, game])
    db.commit()
    page = Page(client.get(f"/games/{game_id}"))
    assert not page.has_button("Undo hand 1")
    assert not has_link(page, "Edit hand 1") and not has_link(page, "Next game, same seats")
    assert "kept as it was" in page.text and "Bob & Eve win!" in page.text
    page = Page(client.get(f"/games/{game_id}/hands/1/edit"))
    assert "can't be changed" in page.alerts()[0] and not page.has_button("Save hand 1")
    for url, data in ((f"/games/{game_id}/hands/undo", {"number": "1"}),
                      (f"/games/{game_id}/hands/1", {"number": "1", "calls": "pass"})):
        response = client.post(url, data=data)
        assert response.status_code == 409
        assert "can't be changed" in Page(response).alerts()[0]
    (hand,) = hands_of(db, game_id)
    assert hand.undone_at is None and hand.points["high"] == "B"


def test_a_players_page_charts_the_evenings_with_a_table_to_read(client, db, new_game_form,
                                                                   play):
    # Evening 1 (dated 1 May 2025): Bob (B) bids 3 and sweeps: won 1 of 1, made 1 of 1.
    # Evening 2 (today): Bob bids 3 and A takes everything: B set, A wins with 5 + Game.
    # After evening 2: won 1 of 2 = 50 %, made 1 of 2 = 50 %.
    first = new_game(client, new_game_form, evening="new")
    play(first, 1, *B_SWEEPS)
    evening = evening_of(db, first)
    evening.played_on = date(2025, 5, 1)
    db.add(evening)
    db.commit()
    second = new_game(client, new_game_form, evening="new")
    play(second, 1, calls_for(1, {2: 3}), "clubs", "AAAAA", "A")
    bob = db.exec(select(Player).where(Player.name == "Bob")).one()
    page = Page(client.get(f"/players/{bob.id}"))
    lines = {line.get("data-figure"): line.get("points").split()
             for line in page.root.find_all("polyline")}
    assert len(lines["win_rate"]) == len(lines["made_rate"]) == 2
    rows = [" ".join(cell.text() for cell in row.iter() if cell.tag in ("th", "td"))
            for row in page.root.find_all("tr")]
    assert "1 May 1, 2025 100% 100%" in rows  # the player's evening 1, dated
    tonight = evening_of(db, second).played_on
    assert f"2 {tonight:%b} {tonight.day}, {tonight.year} 50% 50%" in rows
    # Both lines fall from the top (100 %) to the middle (50 %) of the chart.
    top, middle = (float(lines["win_rate"][i].split(",")[1]) for i in (0, 1))
    assert top < middle


def test_the_evening_tally_leads_to_each_players_page(client, db, new_game_form, play):
    game = new_game(client, new_game_form, evening="new")
    play(game, 1, *B_SWEEPS)
    page = Page(client.get(f"/evenings/{evening_of(db, game).id}"))
    links = {a.text(): a.get("href") for a in page.root.find_all("a")
             if (a.get("href") or "").startswith("/players/")}
    assert sorted(links) == sorted(NAMES)
    bob = Page(client.get(links["Bob"]))
    assert bob.root.find("h1").text() == "Bob"


# --- closing an evening on purpose ---------------------------------------------------------

def scorer_of(app):
    return client_as(app, "scorer", name="Sam")


def test_a_second_evening_on_the_same_day_locks_nothing(client, db, new_game_form, play):
    first = new_game(client, new_game_form, evening="new")
    play(first, 1, *B_SWEEPS)
    second = new_game(client, new_game_form, evening="new")  # one wrong tap: a new evening
    assert evening_of(db, second).id != evening_of(db, first).id
    page = Page(client.get(f"/games/{first}"))
    assert page.has_button("Undo hand 1") and has_link(page, "Edit hand 1")
    assert "kept as it was" not in page.text
    edit = Page(client.get(f"/games/{first}/hands/1/edit"))
    assert not edit.alerts() and edit.has_button("Save hand 1")
    response = client.post(f"/games/{first}/hands/undo", data={"number": "1"})
    assert response.status_code == 303
    assert hands_of(db, first)[0].undone_at is not None


def test_a_scorer_closes_the_evening_with_one_confirming_tap(app, client, db, new_game_form,
                                                           play):
    game = new_game(client, new_game_form, evening="new")
    play(game, 1, *B_SWEEPS)
    in_play = new_game(client, new_game_form)  # tonight's second game, not over
    evening = evening_of(db, game)
    scorer = scorer_of(app)
    page = Page(scorer.get(f"/evenings/{evening.id}"))
    assert "every game of this evening can still be corrected" in page.text
    close = page.root.find("details", class_="close-evening")
    assert close.find("summary").text() == "Close this evening"
    form = page.form_posting_to(f"/evenings/{evening.id}/close")
    assert form.button_texts() == ["Yes, close the evening"]
    response = scorer.post(f"/evenings/{evening.id}/close")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/evenings/{evening.id}")
    closed = evening_of(db, game).closed_at
    assert closed is not None
    page = Page(scorer.get(f"/evenings/{evening.id}"))
    assert page.notices() == ["The evening is closed: its finished games are kept as they are."]
    assert "Closed at" in page.text and not page.has_button("Yes, close the evening")
    assert page.has_button("Open the evening again")

    # Its finished game is kept as it was; the game still in play can be finished.
    page = Page(scorer.get(f"/games/{game}"))
    assert not page.has_button("Undo hand 1") and not has_link(page, "Edit hand 1")
    response = scorer.post(f"/games/{game}/hands/undo", data={"number": "1"})
    assert response.status_code == 409
    assert Page(response).alerts()[0] == ("This game's evening is closed: the game is kept as "
                                          "it was and can't be changed.")
    assert hands_of(db, game)[0].undone_at is None
    play(in_play, 1, *B_SWEEPS)
    # The next game opens a new evening: a closed one takes no more games.
    assert "Tonight's evening" not in Page(client.get("/games/new")).text
    assert evening_of(db, new_game(client, new_game_form)).id != evening.id

    # A second tap (the Back button, another phone) closes nothing more, and says so.
    again = scorer.post(f"/evenings/{evening.id}/close")
    assert again.status_code == 303
    assert Page(scorer.get(f"/evenings/{evening.id}")).notices() == [
        "This evening was closed already."]
    assert evening_of(db, game).closed_at == closed


def test_a_scorer_opens_a_closed_evening_again_to_put_a_mistake_right(app, client, db,
                                                                      new_game_form, play):
    game = new_game(client, new_game_form, evening="new")
    play(game, 1, *B_SWEEPS)
    evening_id = evening_of(db, game).id
    scorer = scorer_of(app)
    scorer.post(f"/evenings/{evening_id}/close")
    scorer.get(f"/evenings/{evening_id}")  # its notice, read
    response = scorer.post(f"/evenings/{evening_id}/reopen")
    assert response.status_code == 303
    assert evening_of(db, game).closed_at is None
    page = Page(scorer.get(f"/evenings/{evening_id}"))
    assert page.notices() == ["The evening is open again: its games can be corrected."]
    assert page.has_button("Yes, close the evening")
    assert Page(scorer.get(f"/games/{game}")).has_button("Undo hand 1")
    scorer.post(f"/evenings/{evening_id}/reopen")
    assert Page(scorer.get(f"/evenings/{evening_id}")).notices() == [
        "This evening was open already."]


def test_a_viewer_can_neither_close_nor_reopen_an_evening(app, client, db, new_game_form):
    game = new_game(client, new_game_form, evening="new")
    evening_id = evening_of(db, game).id
    viewer = client_as(app, "viewer", name="Vera")
    page = Page(viewer.get(f"/evenings/{evening_id}"))
    assert "Close this evening" not in page.text
    assert not [form for form in page.forms() if form.method == "post"
                and form.action.startswith("/evenings/")]
    assert viewer.post(f"/evenings/{evening_id}/close").status_code == 403
    assert evening_of(db, game).closed_at is None
    client.post(f"/evenings/{evening_id}/close")
    assert viewer.post(f"/evenings/{evening_id}/reopen").status_code == 403
    assert evening_of(db, game).closed_at is not None


def test_closing_without_the_forms_token_is_refused_and_closes_nothing(csrf_app,
                                                                       new_game_form):
    owner = client_as(csrf_app)
    token = Page(owner.get("/games/new")).csrf_meta()
    response = owner.post("/games/new", data={**new_game_form(evening="new"),
                                              "csrf_token": token})
    assert response.status_code == 303
    with Session(csrf_app.extensions["db_engine"]) as session:
        evening_id = session.exec(select(Evening.id)).one()
    refused = owner.post(f"/evenings/{evening_id}/close")
    assert refused.status_code == 400 and Page(refused).alerts()  # said, in a page
    with Session(csrf_app.extensions["db_engine"]) as session:
        assert session.get(Evening, evening_id).closed_at is None
    form = Page(owner.get(f"/evenings/{evening_id}")).form_posting_to(
        f"/evenings/{evening_id}/close")
    assert submit(owner, form).status_code == 303  # the page's own form: closed
    with Session(csrf_app.extensions["db_engine"]) as session:
        assert session.get(Evening, evening_id).closed_at is not None


def test_an_evening_quiet_for_36_hours_is_over_and_stays_so(app, client, db, new_game_form,
                                                           play, monkeypatch):
    game_id = new_game(client, new_game_form, evening="new")
    play(game_id, 1, *B_SWEEPS)
    evening_id = evening_of(db, game_id).id
    changed = db.get(Game, game_id).changed_at
    changed = changed if changed.tzinfo else changed.replace(tzinfo=timezone.utc)
    monkeypatch.setattr("scorekeeper.table.evenings.utcnow", lambda: changed + timedelta(hours=35))
    assert Page(client.get(f"/games/{game_id}")).has_button("Undo hand 1")
    monkeypatch.setattr("scorekeeper.table.evenings.utcnow", lambda: changed + timedelta(hours=36))
    page = Page(client.get(f"/games/{game_id}"))
    assert not page.has_button("Undo hand 1") and "kept as it was" in page.text
    page = Page(client.get(f"/evenings/{evening_id}"))
    assert "Nothing changed in this evening for 36 hours, so it is over" in page.text
    assert not page.has_button("Yes, close the evening")
    assert not page.has_button("Open the evening again")
    # Closed and quiet: opening it again would open nothing.
    client.post(f"/evenings/{evening_id}/close")
    client.get(f"/evenings/{evening_id}")  # the flashed notice, read
    client.post(f"/evenings/{evening_id}/reopen")
    assert Page(client.get(f"/evenings/{evening_id}")).notices() == [
        "Nothing in this evening changed for 36 hours: it stays as it was."]
    assert evening_of(db, game_id).closed_at is not None


def test_the_game_page_shows_tonights_games_won(client, db, new_game_form, play):
    first = new_game(client, new_game_form, evening="new")
    assert Page(client.get(f"/games/{first}")).root.find("p", class_="tonight") is None
    play(first, 1, *B_SWEEPS)
    second = new_game(client, new_game_form)
    for game in (first, second):
        page = Page(client.get(f"/games/{game}"))
        line = page.root.find("p", class_="tonight")
        assert line.text() == ("Games won this evening: Bob 1 · Eve 1 · Ann 0 · Cid 0 · "
                               "Dan 0 · Fay 0")
        assert line.find("a").get("href") == f"/evenings/{evening_of(db, first).id}"
