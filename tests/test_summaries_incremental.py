"""The club's sums moved on by the one game that changed always equal a full replay.

After a hand the statistics recount that game and adjust the stored sums instead of
adding up every game again; these tests take many changes of every kind in a row
(record, edit, undo, insert a forgotten hand, swap seats, abandon and take back) and
compare every figure with a replay after each, check that the usual change takes the
adjusting way, and that pages adding up at the same moment never store wrong sums.
"""
from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

from hypothesis import HealthCheck, given, settings, strategies as st
from sqlmodel import Session, select

from scorekeeper.figures import summaries
from scorekeeper.figures.summaries import club_stats, up_to_date
from scorekeeper.rules import Deal, RuleViolation, Tally
from scorekeeper.store.models import ClubSummary, Game
from scorekeeper.store.replay import load_replay
from scorekeeper.table.corrections import apply, edit_hand, plan_abandon, plan_insert, plan_swap
from scorekeeper.table.recording import record_hand, undo_last_hand
from tests.test_summaries import (
    EVERY_TABLE, assert_summaries_match_a_replay, figures, fresh_club, seeding,
)

STEPS = ("record", "edit", "undo", "insert", "swap", "abandon", "reinstate")


def take_step(session: Session, rng: random.Random, game: Game, step: str) -> None:
    """One change to ``game`` as a scorer would make it; a refused one changes nothing."""
    replay = load_replay(session, game)
    try:
        if step == "record" and not replay.state.finished and game.abandoned_at is None:
            deal = seeding.random_deal(rng, replay.rules, replay.state.next_dealer)
            record_hand(session, replay, replay.state.next_number, deal, game.revision)
        elif step == "undo" and replay.hands:
            undo_last_hand(session, replay, replay.hands[-1].number, game.revision)
        elif step == "edit" and any(hand.points is not None for hand in replay.hands):
            hand = rng.choice([hand for hand in replay.hands if hand.points is not None])
            deal = Deal(tuple(hand.calls), hand.trump,
                        Tally({k: v for k, v in hand.points.items() if k != "game"}, None))
            edit_hand(session, replay, hand.number, deal, game.revision)
        elif step == "insert" and replay.hands:
            before = rng.randint(1, len(replay.hands))
            dealer = replay.state.deals[before - 1].dealer_seat
            deal = seeding.random_deal(rng, replay.rules, dealer)
            apply(session, replay, plan_insert(replay, before, deal), game.revision)
        elif step == "swap":
            seats = range(1, replay.rules.seats + 1)
            apply(session, replay, plan_swap(replay, *rng.sample(seats, 2)), game.revision)
        elif step in ("abandon", "reinstate"):
            abandon = step == "abandon"
            if (game.abandoned_at is None) == abandon:
                apply(session, replay, plan_abandon(replay, abandon), game.revision)
    except RuleViolation:  # a change the rules refuse (an edit that ends the game early)
        session.rollback()


def a_hand_on_the_newest_game(session: Session, rng: random.Random) -> None:
    """The next hand of the club's newest game, or its last one undone once it is over."""
    game = session.exec(select(Game).order_by(Game.id.desc())).first()
    replay = load_replay(session, game)
    if replay.state.finished:
        undo_last_hand(session, replay, replay.hands[-1].number, game.revision)
    else:
        deal = seeding.random_deal(rng, replay.rules, replay.state.next_dealer)
        record_hand(session, replay, replay.state.next_number, deal, game.revision)


def spy_on_adding_up(monkeypatch) -> list:
    """A list that gets an entry each time the statistics are added up in full."""
    added_up: list = []
    original = summaries.refresh
    monkeypatch.setattr(summaries, "refresh",
                        lambda *args: added_up.append(args) or original(*args))
    return added_up


def runs_of(steps: tuple[str, ...], most: int):
    """Runs of changes: (which of the club's games, its index wrapped; which step)."""
    return st.lists(st.tuples(st.integers(0, 5), st.sampled_from(steps)),
                    min_size=4, max_size=most)


def each_change(session: Session, run, step, check) -> None:
    """``step(game, what)`` for each change of ``run`` on the club's games, ``check()``
    before the first and after each."""
    check()
    games = session.exec(select(Game).order_by(Game.id)).all()
    for which, what in run:
        step(session.get(Game, games[which % len(games)].id), what)
        check()


@settings(max_examples=9, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), steps=runs_of(STEPS, 14))
def test_many_changes_in_a_row_at_every_table_always_equal_a_replay(rng, steps):
    """Games at every layout, sixes among them, changed in any order."""
    session, club, _ = fresh_club(2, 6, 60, rng, EVERY_TABLE)
    with session:
        each_change(session, steps, lambda game, step: take_step(session, rng, game, step),
                    lambda: assert_summaries_match_a_replay(session, club))


def test_a_recorded_hand_moves_the_sums_on_without_adding_up_again(monkeypatch):
    session, club, _ = fresh_club(2, 6, 60, random.Random(4))
    with session:
        club_stats(session, club.id)
        added_up = spy_on_adding_up(monkeypatch)
        for round_number in range(3):
            a_hand_on_the_newest_game(session, random.Random(round_number))
            assert_summaries_match_a_replay(session, club)
        assert added_up == []
        assert session.get(ClubSummary, club.id).stamp == summaries.club_stamp(session, club.id)


def test_sums_whose_stamp_does_not_account_for_the_change_are_added_up_anew():
    """Stored sums from before some other change (here: a game's revision moved with
    its rows recounted, so it isn't stale) can't be moved on: they are added up again."""
    session, club, _ = fresh_club(2, 4, 40, random.Random(6))
    with session:
        expected = {s.player_id: figures(s) for s in club_stats(session, club.id)}
        summary = session.get(ClubSummary, club.id)
        summary.players = [{**sums, "won": sums["won"] + 7} for sums in summary.players]
        count, newest, revisions, abandoned = summary.stamp.split(":")
        summary.stamp = f"{count}:{newest}:{int(revisions) - 1}:{abandoned}"
        session.add(summary)
        session.commit()
        assert {s.player_id: figures(s) for s in club_stats(session, club.id)} == expected


def test_abandoning_a_game_and_taking_it_back_move_the_sums_on_too(monkeypatch):
    session, club, _ = fresh_club(2, 4, 40, random.Random(7))
    with session:
        assert_summaries_match_a_replay(session, club)
        added_up = spy_on_adding_up(monkeypatch)
        game = session.exec(select(Game).order_by(Game.id)).first()
        for when in (datetime.now(timezone.utc), None):
            game.abandoned_at = when
            session.add(game)
            session.commit()
            assert_summaries_match_a_replay(session, club)
        assert added_up == []


def test_pages_adding_up_at_the_same_moment_store_only_right_sums():
    """Several pages (as from two servers) bring the sums up to date at once after a
    hand: whichever stores them, the stored sums equal a replay."""
    session, club, _ = fresh_club(2, 6, 60, random.Random(9))
    engine = session.get_bind()
    with session:
        club_stats(session, club.id)
        for round_number in range(4):
            a_hand_on_the_newest_game(session, random.Random(round_number))

            def page(_):
                with Session(engine) as other:
                    try:
                        return {s.player_id: figures(s) for s in club_stats(other, club.id)}
                    except Exception as error:  # a busy database: that page fails alone
                        return error

            with ThreadPoolExecutor(4) as pool:
                answers = list(pool.map(page, range(4)))
            session.expire_all()
            up_to_date(session, club.id)
            assert_summaries_match_a_replay(session, club)
            right = {s.player_id: figures(s) for s in club_stats(session, club.id)}
            assert all(answer == right for answer in answers
                       if not isinstance(answer, Exception))
