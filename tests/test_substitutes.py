"""A substitute from a hand on: the hands before stay the leaving player's, those after
are the substitute's, in the statistics, the partnerships, the ratings' shares, the game
file and the backup; and it can be taken back.

The game below is laid out by hand from RULES.md (three pairs to 11, Ann deals first;
A = seats 1 & 4, B = 2 & 5, C = 3 & 6; bidding starts left of the dealer), and every
figure the tests expect is worked out here from that table alone, not by the app:

  seat 1: Ann hands 1-2, Gil hands 3-5, Ivy hands 6-7;  seat 4: Dan 1-3, Hal 4-7.

  1. Ann deals; Bob (B) bids 4 ♥: A High, Game; B Low, Right; C Left, Joker. Set.
  2. Bob deals; Cid (C) bids 3 ♠: C High, Low, Right, Game; A Left; B Joker. Made.
  3. Cid deals; Dan (A) bids 3 ♣: A High, Low, Right; B Left, Joker; Game tied. Made.
  4. Hal deals; Gil (A) bids 4 ♦: A High, Low, Right, Left; B Joker; C Game. Made.
  5. Eve deals: all pass, thrown in; Eve deals again.
  6. Eve deals; Ivy (A) bids 5 ♠: A High, Low; B Right, Left; C Joker, Game. Set.
  7. Fay deals; Cid (C) bids 3 ♥: C High, Low, Game; B Right, Left; A Joker. Made:
     A 6, B 4, C 12, and C has reached 11: C wins.
"""
from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from sqlmodel import Session, select

from scorekeeper import create_app
from scorekeeper.figures.summaries import club_stats, one_player_stats
from scorekeeper.files.exchange import MAX_HANDS, export_game, export_text, import_game
from scorekeeper.files.json_files import FileRefused
from scorekeeper.rules import PASS, SEATS, Deal, HouseRules, RuleViolation, Tally
from scorekeeper.store.db import get_session, make_engine
from scorekeeper.store.migrate import upgrade
from scorekeeper.store.models import Club, Game, GameChange, GameSeat, Player
from scorekeeper.store.replay import load_replay
from scorekeeper.table.corrections import (
    apply, last_substitute_hand, plan_insert, plan_rename, plan_substitute, plan_swap,
    plan_take_back,
)
from scorekeeper.table.recording import record_hand, undo_last_hand
from scorekeeper.table.seating import start_game
from tests.databases import database_url
from tests.members import first_club
from tests.test_backup import backup_of, fresh_app, restore_into
from tests.test_summaries import assert_summaries_match_a_replay, fresh_club, seeding

START = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
TEAM = {1: "A", 4: "A", 2: "B", 5: "B", 3: "C", 6: "C"}
# seat -> (first hand, player), in order
SITTINGS = {1: [(1, "Ann"), (3, "Gil"), (6, "Ivy")], 2: [(1, "Bob")], 3: [(1, "Cid")],
            4: [(1, "Dan"), (4, "Hal")], 5: [(1, "Eve")], 6: [(1, "Fay")]}
SUBSTITUTES = [(1, 3, "Gil"), (4, 4, "Hal"), (1, 6, "Ivy")]  # seat, from hand, name
# dealer, bidder, bid, trump, owners of High Low Right Left Joker, Game, made
HANDS = [
    (1, 2, 4, "hearts", "ABBCC", "A", False),
    (2, 3, 3, "spades", "CCCAB", "C", True),
    (3, 4, 3, "clubs", "AAABB", None, True),
    (4, 1, 4, "diamonds", "AAAAB", "C", True),
    (5, None, None, None, None, None, None),
    (5, 1, 5, "spades", "AABBC", "C", False),
    (6, 3, 3, "hearts", "CCBBA", "C", True),
]
WINNER = "C"


def who(seat: int, number: int) -> str:
    """Who sat in ``seat`` at hand ``number``, from the table above."""
    return [name for first, name in SITTINGS[seat] if first <= number][-1]


def calls(dealer: int, bidder: int | None, bid: int | None) -> tuple:
    """The winning bid alone, every other seat passing, from the dealer's left."""
    order = [(dealer + step - 1) % 6 + 1 for step in range(1, 7)]
    return tuple(bid if seat == bidder else PASS for seat in order)


def deal(hand) -> Deal:
    dealer, bidder, bid, trump, owners, game, _made = hand
    if bidder is None:
        return Deal((PASS,) * 6)
    points = dict(zip(("high", "low", "right", "left", "joker"), owners, strict=True))
    return Deal(calls(dealer, bidder, bid), trump, Tally(points, game))


# --- the figures, worked out from the table above --------------------------------------

def expected_figures() -> dict[str, dict]:
    """Each player's figures over the game, counted from HANDS and SITTINGS alone."""
    figures: dict[str, dict] = defaultdict(lambda: {
        "hands": 0, "points": 0, "bids": 0, "made": 0, "throw_ins": 0, "sat": set()})
    seat_of = {name: seat for seat, sat in SITTINGS.items() for _, name in sat}
    for number, (dealer, bidder, bid, _trump, owners, game, made) in enumerate(HANDS, 1):
        for seat in SEATS:
            figures[who(seat, number)]["sat"].add(number)
        if bidder is None:
            figures[who(dealer, number)]["throw_ins"] += 1
            continue
        for seat in SEATS:
            me = figures[who(seat, number)]
            me["hands"] += 1
            me["points"] += list(owners).count(TEAM[seat]) + (game == TEAM[seat])
        figures[who(bidder, number)]["bids"] += 1
        figures[who(bidder, number)]["made"] += made
    for name, me in figures.items():
        me["won"] = int(TEAM[seat_of[name]] == WINNER)
        me["partners"] = {
            other for other, them in figures.items()
            if other != name and seat_of[other] != seat_of[name]
            and TEAM[seat_of[other]] == TEAM[seat_of[name]] and me["sat"] & them["sat"]}
        me["share"] = len(me["sat"]) / len(HANDS)
    return dict(figures)


def test_the_worked_figures_are_those_of_the_table_above():
    """The test's own arithmetic, checked against a few figures read off by hand."""
    figures = expected_figures()
    assert (figures["Gil"]["hands"], figures["Gil"]["points"], figures["Gil"]["bids"]) == \
        (2, 7, 1)  # hand 3: High, Low, Right; hand 4: all but the Joker; hand 5 thrown in
    assert figures["Eve"]["throw_ins"] == 1 and figures["Cid"]["made"] == 2
    assert figures["Ann"]["partners"] == {"Dan"} and figures["Hal"]["partners"] == {"Gil", "Ivy"}
    assert figures["Ivy"]["share"] == 2 / 7 and figures["Hal"]["share"] == 4 / 7


# --- building the game ---------------------------------------------------------------

@pytest.fixture
def session(app):
    with app.app_context():
        yield get_session()


def new_game(session) -> Game:
    return start_game(session, first_club(session), START,
                      HouseRules(teams="3x2", target=11), 1)


def substitute(session, game: Game, seat: int, number: int, name: str):
    replay = load_replay(session, game)
    plan = plan_substitute(replay, seat, number, name)
    apply(session, replay, plan, game.revision)
    return plan


def record(session, game: Game, number: int) -> None:
    replay = load_replay(session, game)
    record_hand(session, replay, number, deal(HANDS[number - 1]), game.revision)


def play_live(session) -> Game:
    """Each substitute entered as they sit down, before the hand they play first."""
    game = new_game(session)
    coming = {number: (seat, name) for seat, number, name in SUBSTITUTES}
    for number in range(1, len(HANDS) + 1):
        if number in coming:
            substitute(session, game, coming[number][0], number, coming[number][1])
        record(session, game, number)
    return game


def play_then_fix(session) -> Game:
    """Every hand recorded first, the substitutes entered afterwards, in another order."""
    game = new_game(session)
    for number in range(1, len(HANDS) + 1):
        record(session, game, number)
    for seat, number, name in reversed(SUBSTITUTES):
        substitute(session, game, seat, number, name)
    return game


BUILDS = {"as_they_sit_down": play_live, "afterwards": play_then_fix}


def ids(session) -> dict[str, int]:
    return {p.name: p.id for p in session.exec(select(Player))}


def assert_figures_are_the_worked_ones(session, game: Game) -> None:
    figures, by_name = expected_figures(), ids(session)
    names = {player_id: name for name, player_id in by_name.items()}
    counted = {names[s.player_id]: s for s in club_stats(session, game.club_id)}
    assert set(counted) == set(figures)
    for name, me in figures.items():
        stats = counted[name]
        assert (stats.played, stats.won, stats.lost) == (1, me["won"], 1 - me["won"]), name
        assert (stats.hands_played, stats.all_points, stats.bids, stats.made,
                stats.throw_ins_dealt) == (me["hands"], me["points"], me["bids"], me["made"],
                                           me["throw_ins"]), name
        alone = one_player_stats(session, session.get(Player, by_name[name]))
        assert set(alone.names[pid] for pid in alone.partners) == me["partners"], name
        assert {(r.played, r.won, r.lost) for r in alone.partners.values()} <= \
            {(1, me["won"], 1 - me["won"])}, name


@pytest.mark.parametrize("build", BUILDS.values(), ids=BUILDS.keys())
def test_each_hand_counts_for_who_sat_at_it(session, build):
    game = build(session)
    replay = load_replay(session, game)
    assert replay.state.finished and replay.state.winner == WINNER
    assert replay.state.scores == {"A": 6, "B": 4, "C": 12}
    for number, result in enumerate(replay.state.deals, 1):
        sat = replay.names_at(number)
        assert sat == {seat: who(seat, number) for seat in SEATS}, number
        assert sat[result.dealer_seat] == who(HANDS[number - 1][0], number)
    assert replay.names == {seat: who(seat, len(HANDS)) for seat in SEATS}
    assert_figures_are_the_worked_ones(session, game)
    assert_summaries_match_a_replay(session, session.get(Club, game.club_id))


@pytest.mark.parametrize("build", BUILDS.values(), ids=BUILDS.keys())
def test_each_team_has_its_players_with_the_share_of_hands_each_played(session, build):
    game = build(session)
    figures, by_name = expected_figures(), ids(session)
    shares = load_replay(session, game).team_shares()
    assert shares == {
        team: {by_name[name]: me["share"] for name, me in figures.items()
               if TEAM[[s for s, sat in SITTINGS.items() if name in dict(sat).values()][0]]
               == team}
        for team in ("A", "B", "C")}
    assert shares["A"][by_name["Ann"]] + shares["A"][by_name["Gil"]] + \
        shares["A"][by_name["Ivy"]] == pytest.approx(1)


def test_the_change_log_keeps_each_substitute(session):
    game = play_live(session)
    changes = session.exec(select(GameChange).where(GameChange.game_id == game.id)
                           .where(GameChange.kind == "subbed").order_by(GameChange.id)).all()
    assert [(c.number, c.details) for c in changes] == [
        (3, {"seat": 1, "from": "Ann", "to": "Gil"}),
        (4, {"seat": 4, "from": "Dan", "to": "Hal"}),
        (6, {"seat": 1, "from": "Gil", "to": "Ivy"})]
    assert all(c.totals_before == c.totals_after for c in changes)


# --- taken back, and the other corrections around it -----------------------------------

def test_a_substitute_taken_back_gives_the_hands_back_to_the_seats_player(session):
    game = play_then_fix(session)
    revision = game.revision
    replay = load_replay(session, game)
    apply(session, replay, plan_take_back(replay, 1, 3), game.revision)
    replay = load_replay(session, game)
    assert game.revision == revision + 1
    assert [replay.names_at(n)[1] for n in range(1, 8)] == ["Ann"] * 5 + ["Ivy"] * 2
    figures = {s.name: s for s in club_stats(session, game.club_id)}
    assert "Gil" not in figures and figures["Ann"].hands_played == 4
    change = session.exec(select(GameChange).order_by(GameChange.id.desc())).first()
    assert (change.kind, change.number, change.details) == (
        "unsubbed", 3, {"seat": 1, "from": "Gil", "to": "Ann"})
    with pytest.raises(RuleViolation) as refused:
        plan_take_back(replay, 1, 3)
    assert refused.value.code == "no_substitute"
    with pytest.raises(RuleViolation):
        plan_take_back(replay, 2, 1)  # the player a seat started with is no substitute


def test_a_forgotten_hand_before_a_substitute_keeps_them_on_the_same_hand(session):
    game = play_then_fix(session)
    replay = load_replay(session, game)
    # A throw-in Cid dealt, forgotten before hand 3: Ann still sat there (the hands
    # before a substitute stay the leaving player's), Gil came in at what is now hand 4.
    apply(session, replay, plan_insert(replay, 3, Deal((PASS,) * 6)), game.revision)
    replay = load_replay(session, game)
    assert [replay.names_at(n)[1] for n in range(1, 9)] == \
        ["Ann"] * 3 + ["Gil"] * 3 + ["Ivy"] * 2
    assert [replay.names_at(n)[4] for n in range(1, 9)] == ["Dan"] * 4 + ["Hal"] * 4
    assert_summaries_match_a_replay(session, first_club(session))


def test_a_swap_moves_each_seats_substitutes_and_a_rename_names_who_sits_now(session):
    game = play_then_fix(session)
    replay = load_replay(session, game)
    apply(session, replay, plan_swap(replay, 1, 2), game.revision)
    replay = load_replay(session, game)
    assert [replay.names_at(n)[2] for n in (1, 3, 6)] == ["Ann", "Gil", "Ivy"]
    assert {replay.names_at(n)[1] for n in range(1, 8)} == {"Bob"}
    apply(session, replay, plan_rename(replay, 2, "Iva"), game.revision)
    replay = load_replay(session, game)
    assert [replay.names_at(n)[2] for n in (1, 3, 6)] == ["Ann", "Gil", "Iva"]
    # Someone who played earlier in the game can't be named to another seat now.
    with pytest.raises(RuleViolation) as refused:
        plan_rename(replay, 5, "gil")
    assert refused.value.code == "name_twice"
    assert_summaries_match_a_replay(session, first_club(session))


# --- what a substitute may not be ------------------------------------------------------

@pytest.mark.parametrize("seat, number, name, code", [
    (1, 1, "Gus", "substitute_from_start"),  # from hand 1: a wrong name, not a substitute
    (1, 0, "Gus", "no_such_hand"),
    (1, -3, "Gus", "no_such_hand"),
    (1, 8, "Gus", "no_such_hand"),  # the game is over after hand 7
    (7, 3, "Gus", "no_such_seat"),
    (1, 3, "   ", "seat_empty"),
    (1, 3, "G" * 41, "name_too_long"),
    (2, 3, "cid", "name_twice"),  # sits in seat 3
    (2, 3, "Hal", "name_twice"),  # sits in seat 4 from hand 4
    (1, 7, "Ann", "sits_once"),  # left seat 1 after hand 2: no coming back
    (1, 5, " gil ", "name_same"),  # Gil sits there at hand 5 already
    (1, 6, "Gus", "substitute_there"),  # Ivy took seat 1 at hand 6
])
def test_a_substitute_that_cant_be_is_refused_and_nothing_changes(session, seat, number,
                                                                   name, code):
    game = play_then_fix(session)
    revision = game.revision
    with pytest.raises(RuleViolation) as refused:
        plan_substitute(load_replay(session, game), seat, number, name)
    assert refused.value.code == code
    session.expire_all()
    assert session.get(Game, game.id).revision == revision
    assert len(session.exec(select(GameSeat).where(GameSeat.game_id == game.id)).all()) == 9


def test_in_a_game_in_play_the_next_hand_is_the_last_a_substitute_can_take(session):
    game = new_game(session)
    for number in (1, 2):
        record(session, game, number)
    replay = load_replay(session, game)
    assert last_substitute_hand(replay) == 3
    substitute(session, game, 1, 3, "Gil")
    replay = load_replay(session, game)
    assert replay.names[1] == "Gil" and replay.names_at(2)[1] == "Ann"
    with pytest.raises(RuleViolation):
        plan_substitute(replay, 4, 4, "Hal")  # hand 4 is two hands away yet


# --- the game file and the backup ------------------------------------------------------

def without_ids(record: dict) -> dict:
    return {key: value for key, value in record.items() if key not in ("id", "created_at")}


def test_a_game_file_keeps_its_substitutes_and_reads_back_the_same(session):
    game = play_live(session)
    record = export_game(load_replay(session, game))
    assert record["seats"] == START
    assert record["substitutes"] == [{"seat": 1, "from_hand": 3, "name": "Gil"},
                                     {"seat": 4, "from_hand": 4, "name": "Hal"},
                                     {"seat": 1, "from_hand": 6, "name": "Ivy"}]
    copy = import_game(session, first_club(session),
                       export_text(load_replay(session, game)))
    assert without_ids(export_game(load_replay(session, copy))) == without_ids(record)
    seats = {g: sorted((s.seat, s.from_hand, s.player_id) for s in session.exec(
        select(GameSeat).where(GameSeat.game_id == g))) for g in (game.id, copy.id)}
    assert seats[copy.id] == seats[game.id]  # the same players, not new ones


def test_a_game_file_with_substitutes_imports_into_a_new_club(session):
    game = play_then_fix(session)
    text_of_file = export_text(load_replay(session, game))
    other = create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "t"})
    with other.app_context():
        elsewhere = get_session()
        copy = import_game(elsewhere, first_club(elsewhere), text_of_file)
        assert_figures_are_the_worked_ones(elsewhere, copy)


def test_a_game_without_substitutes_is_written_as_before_they_were_kept(session):
    game = new_game(session)
    record(session, game, 1)
    assert "substitutes" not in export_game(load_replay(session, game))


def bad_file(session, change) -> str:
    record = export_game(load_replay(session, play_then_fix(session)))
    change(record)
    with pytest.raises(FileRefused) as refused:
        import_game(session, first_club(session), json.dumps(record))
    return str(refused.value)


@pytest.mark.parametrize("change, message", [
    (lambda r: r["substitutes"][0].update(from_hand=1),
     "substitutes[0].from_hand: from hand 1 on, seat 1 was someone else all game: that is "
     "a wrong name, not a substitute"),
    (lambda r: r["substitutes"][1].update(from_hand=MAX_HANDS + 1),
     f"substitutes[1].from_hand: there is no hand {MAX_HANDS + 1}"),
    (lambda r: r["substitutes"][0].update(seat=0), "substitutes[0].seat: there is no seat 0"),
    (lambda r: r["substitutes"][2].update(name="bob"),
     "substitutes[2].name: Bob can't sit in seats 2 and 1"),
    (lambda r: r["substitutes"].append({"seat": 4, "from_hand": 7, "name": "Dan"}),
     "substitutes[3].name: Dan sat in seat 4 already in this game: a player sits in one "
     "seat, once, in a game"),
    (lambda r: r["substitutes"][0].update(name=""), "substitutes[0].name: seat 1 has no player"),
    (lambda r: r["substitutes"][0].pop("from_hand"), "substitutes[0].from_hand: missing"),
    (lambda r: r.update(substitutes={}), "substitutes: should be a JSON list, not {}"),
], ids=["from hand 1", "past any game", "no seat", "sits twice", "comes back",
        "no name", "no hand", "not a list"])
def test_a_file_with_a_substitute_that_cant_be_is_refused_saying_where(session, change,
                                                                       message):
    games = len(session.exec(select(Game)).all())
    assert bad_file(session, change) == message
    assert len(session.exec(select(Game)).all()) == games + 1  # the one the file came from


def test_a_backup_with_substitutes_restores_the_same_club(app, session):
    play_live(session)
    document = backup_of(app)
    (game,) = document["games"]
    assert game["player_ids"] == [ids(session)[name] for name in START]
    assert game["substitute_ids"] == [ids(session)[name] for name in ("Gil", "Hal", "Ivy")]
    copy = fresh_app()
    restore_into(copy, json.dumps(document))
    assert backup_of(copy) == document
    with copy.app_context():
        assert_figures_are_the_worked_ones(get_session(), get_session().get(Game, game["id"]))


def sat_down_for_hand_7(session) -> Game:
    """Six hands played; Zed sits down in seat 3 for the next hand, hand 7."""
    game = new_game(session)
    for number in range(1, 7):
        record(session, game, number)
    substitute(session, game, 3, 7, "Zed")
    return game


def undo_hand_6(session, game: Game) -> None:
    undo_last_hand(session, load_replay(session, game), 6, game.revision)


def put_in_a_hand_that_ends_the_game(session, game: Game) -> None:
    """A forgotten hand before hand 3, team A making 4 of its own: the game now ends at
    its last hand, hand 7, and hand 8, Zed's first, will never be played."""
    replay = load_replay(session, game)
    forgotten = deal((1, 2, 4, "hearts", "ABBCC", "A", False))
    apply(session, replay, plan_insert(replay, 3, forgotten), game.revision)
    assert load_replay(session, game).state.finished


@pytest.mark.parametrize("then, waits_for", [(undo_hand_6, 7),
                                             (put_in_a_hand_that_ends_the_game, 8)],
                         ids=["last hand undone", "a correction ends the game"])
def test_a_substitute_waiting_for_a_hand_not_played_reads_back_and_restores(
        app, session, then, waits_for):
    """A substitute who sat down for the next hand stays as entered when that hand is not
    (or never will be) the next one: the game's file and the club's backup read back."""
    game = sat_down_for_hand_7(session)
    then(session, game)
    replay = load_replay(session, game)
    assert [(s.seat, s.from_hand) for s in replay.substitutes] == [(3, waits_for)]
    assert waits_for > replay.state.next_number - replay.state.finished
    copy = import_game(session, first_club(session), export_text(replay))
    assert without_ids(export_game(load_replay(session, copy))) == \
        without_ids(export_game(replay))
    document = backup_of(app)
    elsewhere = fresh_app()
    restore_into(elsewhere, json.dumps(document))
    assert backup_of(elsewhere) == document


def test_a_backup_whose_substitute_is_another_player_is_refused(app, session):
    play_live(session)
    document = backup_of(app)
    document["games"][0]["substitute_ids"][1] = ids(session)["Gil"]
    with pytest.raises(FileRefused) as refused:
        restore_into(fresh_app(), json.dumps(document))
    assert str(refused.value) == (f"games[0].substitute_ids[1]: player {ids(session)['Gil']} "
                                  "is Gil, but substitutes[1].name is Hal")
    document["games"][0]["substitute_ids"].pop()
    with pytest.raises(FileRefused) as refused:
        restore_into(fresh_app(), json.dumps(document))
    assert str(refused.value) == ("games[0].substitute_ids: a player id for each of the 3 "
                                  "substitutes, not 2")


# --- the schema ----------------------------------------------------------------------

def test_statistics_kept_before_substitutes_stay_right_after_the_upgrade(tmp_path):
    url = f"sqlite:///{tmp_path / 'kept.sqlite'}"
    engine = make_engine(url)
    upgrade(engine, "0014")
    hand = ("'[\"pass\", 4, \"pass\", \"pass\", \"pass\", \"pass\"]', 'hearts', "
            "'{\"high\": \"A\", \"low\": \"B\", \"right\": \"B\", \"left\": \"C\", "
            "\"joker\": \"C\", \"game\": \"A\"}'")
    with engine.begin() as connection:  # in the club the schema starts with
        connection.execute(text(
            "INSERT INTO game (id, club_id, teams, target, bidder_goes_out, first_dealer, "
            "first_dealer_drawn, created_at) VALUES (1, 1, '3x2', 21, 0, 1, 0, "
            "'2026-01-01 20:00:00')"))
        for seat, name in enumerate(START, start=1):
            connection.execute(text(
                "INSERT INTO player (id, club_id, name, name_key, created_at) "
                "VALUES (:id, 1, :name, :key, '2026-01-01 20:00:00')"),
                {"id": seat, "name": name, "key": name.lower()})
            connection.execute(text("INSERT INTO gameseat (game_id, seat, player_id) "
                                    "VALUES (1, :seat, :seat)"), {"seat": seat})
        # Two live hands and an undone third.
        for number, undone in ((1, "NULL"), (2, "NULL"), (3, "'2026-01-01 20:30:00'")):
            connection.execute(text(
                f"INSERT INTO hand (game_id, number, calls, trump, points, recorded_at, "
                f"undone_at) VALUES (1, {number}, {hand}, '2026-01-01 20:05:00', {undone})"))
        # Counted and kept by the old schema (a row a seat), as a page would have.
        connection.execute(text(
            "INSERT INTO seat_summary (game_id, seat, player_id, revision, team, finished, "
            "won, hands, throw_ins_dealt, bids_3, bids_4, bids_5, bids_6, made_3, made_4, "
            "made_5, made_6, taken_as_bidder, took_high, took_low, took_right, took_left, "
            "took_joker, took_game) SELECT game_id, seat, player_id, 0, CASE WHEN seat IN "
            "(1, 4) THEN 'A' WHEN seat IN (2, 5) THEN 'B' ELSE 'C' END, 0, 0, 2, 0, 0, 0, 0, "
            "0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 FROM gameseat"))
    upgrade(engine, "0015")
    with engine.connect() as connection:  # as 0015 left them (0017 counts them again)
        rows = connection.execute(text("SELECT from_hand, to_hand FROM seat_summary")).all()
        seats = connection.execute(text("SELECT from_hand FROM gameseat")).all()
    assert set(rows) == {(1, 2)}  # 2 live hands
    assert {seat.from_hand for seat in seats} == {1} and len(seats) == 6
    upgrade(engine)
    with Session(engine) as session:
        # Partners as ever, the pair of each team.
        ann = one_player_stats(session, session.get(Player, 1))
        assert ann.hands_played == 2 and set(ann.names[pid] for pid in ann.partners) == {"Dan"}


# --- any game, any substitute ----------------------------------------------------------

@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), data=st.data())
def test_any_substitutes_leave_statistics_that_add_up_and_a_file_that_reads_back(rng, data):
    session, club, _ = fresh_club(2, 3, 40, rng)
    with session:
        games = session.exec(select(Game).order_by(Game.id)).all()
        game = data.draw(st.sampled_from(games))
        roster = [p.name for p in session.exec(select(Player))]
        for count in range(data.draw(st.integers(1, 4))):
            replay = load_replay(session, game)
            last = last_substitute_hand(replay)
            if last < 2:
                break
            name = data.draw(st.sampled_from(roster + [f"Sub {count}"]))
            try:
                plan = plan_substitute(replay, data.draw(st.integers(1, 6)),
                                       data.draw(st.integers(2, last)), name)
            except RuleViolation:  # someone at the table already, say
                continue
            apply(session, replay, plan, game.revision)
        replay = load_replay(session, game)
        if replay.substitutes and data.draw(st.booleans()):
            gone = data.draw(st.sampled_from(replay.substitutes))
            apply(session, replay, plan_take_back(replay, gone.seat, gone.from_hand),
                  game.revision)
            replay = load_replay(session, game)
        if replay.hands and data.draw(st.booleans()):
            before = data.draw(st.integers(1, len(replay.hands)))
            dealer = replay.state.deals[before - 1].dealer_seat
            try:
                apply(session, replay, plan_insert(
                    replay, before, seeding.random_deal(random.Random(before), replay.rules,
                                                        dealer)), game.revision)
            except RuleViolation:
                session.rollback()
        assert_summaries_match_a_replay(session, club)
        replay = load_replay(session, game)
        for team, shares in replay.team_shares().items():
            if replay.state.deals:
                assert sum(shares.values()) == pytest.approx(
                    len(replay.rules.team_seats[team]))
        copy = import_game(session, club, export_text(replay))
        assert without_ids(export_game(load_replay(session, copy))) == \
            without_ids(export_game(replay))
