"""The boards: a game's scoreboard, an evening's table board and every table at once,
for a TV (a member's, or a screen link's), drawn from the same replays as the game page
and followed by a held poll (``board_poll``) that answers 204 while nothing moved.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from flask import Response, abort, request, url_for
from sqlalchemy.engine import Connection
from sqlmodel import Session

from scorekeeper.rules import CARD_POINTS
from scorekeeper.store.db import get_connection, get_session
from scorekeeper.store.models import Evening
from scorekeeper.store.replay import Replay, load_replay, load_replays
from scorekeeper.table.confirming import waiting
from scorekeeper.table.evenings import current_game, evening_games, evening_tally, tables_now
from scorekeeper.table.live import (
    POLL_SECONDS, EveningHead, PollView, evening_head, shared_draft, tonight_version, version,
)
from scorekeeper.table.waiting import Head, held
from scorekeeper.web.aside import aside
from scorekeeper.web.languages import current_language
from scorekeeper.web.words import hand_preview, point_name, suit_name, verdict_sentence
from scorekeeper.table.entry import NEXT_HAND, entry_for
from scorekeeper.table.game_page import table_arg
from scorekeeper.views.pages import (
    render_page, shown_needs, wants_fragment,
)


@dataclass(frozen=True)
class BoardLinks:
    """Where a board's addresses lead: the evening's own, for a member, with a way on to
    the game and the evening; or a screen link's (``screen``: its token), for whoever
    holds it, which lead nowhere else in the club. Each of its boards (a table's, every
    table's) and their polls has the same name in both (``evenings.board``,
    ``screens.board``…)."""

    screen: str | None = None

    @property
    def to_club(self) -> bool:
        """Whether the board leads to the club's pages: a member's board."""
        return self.screen is None

    def _url(self, name: str, evening_id: int | None, **args) -> str:
        if self.screen is not None:
            return url_for(f"screens.{name}", screen_token=self.screen, **args)
        return url_for(f"evenings.{name}", evening_id=evening_id, **args)

    def version(self, head: EveningHead | None) -> str:
        """The version a board's poll shows: a screen's says which evening is tonight's."""
        return tonight_version(head) if self.screen is not None else head.version

    def board(self, evening_id: int | None, table: int) -> str:
        return self._url("board", evening_id, **table_arg(table))

    def live(self, head: EveningHead | None, table: int) -> str:
        return self._url("live", head and head.evening_id, v=self.version(head), wait=1,
                         **table_arg(table))

    def tables(self, evening_id: int | None) -> str:
        return self._url("tables", evening_id)

    def tables_live(self, head: EveningHead | None) -> str:
        return self._url("tables_live", head and head.evening_id, v=self.version(head),
                         wait=1)

    def chart(self, game) -> str:
        """The game's score chart, kept by its revision, in the page's language."""
        args = {"game_id": game.id, "v": game.revision, "lang": current_language()}
        if self.screen is not None:
            return url_for("screens.chart", screen_token=self.screen, **args)
        return url_for("games.chart", **args)


MEMBERS_BOARD = BoardLinks()


def evening_tables(session: Session, evening: Evening, but: int | None = None
                   ) -> list[tuple[int, Replay]]:
    """The evening's tables, by number, each with the game it plays (or last finished):
    every one, or all ``but`` one (a table board's other tables)."""
    tables = [(number, game) for number, game in
              tables_now(evening_games(session, evening)).items() if number != but]
    return list(zip([number for number, _ in tables],
                    load_replays(session, [game for _, game in tables])))


def _board_game(session: Session, replay: Replay) -> dict:
    """What the board shows of its game: the scores, the hand in progress, the last hand,
    what each team needs, and the game's own poll."""
    game = replay.game
    shared = shared_draft(session, replay)
    entry = entry_for(replay, NEXT_HAND, shared.args)
    auction = entry.draft.auction
    last = next((deal for deal in reversed(replay.state.deals) if not deal.thrown_in), None)
    return dict(
        replay=replay, game=game, state=replay.state, names=replay.names,
        teams=replay.rules.team_seats, entry=entry, draft=entry.draft, auction=auction,
        bidder=auction.bidder_seat if auction.finished and not auction.thrown_in else None,
        last=last, last_sentence=hand_preview(last) if last else None,
        verdict=verdict_sentence(replay.state.verdict),
        needs=shown_needs(replay, past=False),
        waiting=[hand.number for hand in waiting(replay)],
        live_url=url_for("games.live", game_id=game.id,
                         v=version(game.revision, shared.seq), view=PollView.BOARD, wait=1))


def table_head(club_id: int, evening_id: int | None, table: int) -> EveningHead | None:
    """The head of an evening's table, for a board of it (None: a game of no evening).

    Read it *before* the game the board shows: a change committed between the two
    reads then leaves the board's version behind the board, and its next poll brings
    the change. Read after, the version would be ahead of the board and every later
    poll "unchanged": the TV would keep the old scores until the table's next change."""
    if evening_id is None:
        return None
    return evening_head(get_connection(), club_id, evening_id, table)


def render_board(replay: Replay | None, evening: Evening | None = None, table: int = 1, *,
                 head: EveningHead | None, links: BoardLinks = MEMBERS_BOARD) -> Response:
    """The scoreboard: big scores, dealer and bidder, the last hand, the winner's reason.

    ``evening``: the table board, showing the current game of one of that evening's
    tables (``replay``; None before there is one) and moving on to the table's next
    game by itself, with the evening's games won between games and a line for each
    other table. A game's own board follows its table too once the game is over, if it
    is still the table's current game; else it offers the table board. ``head``: the
    table's head, read before the game (``table_head``). ``links``: where its addresses
    lead (a member's, or a screen link's).
    """
    session = get_session()
    game = replay.game if replay else None
    table = game.table_number if game else table
    evening_id = evening.id if evening else game.evening_id
    over = replay is None or replay.state.finished
    follows = evening is not None or (over and head is not None and head.game_id == game.id)
    context = {} if replay is None else _board_game(session, replay)
    if follows:
        evening = evening or session.get(Evening, evening_id)
        context["live_url"] = links.live(head, table)
        if over:
            context["evening_tally"] = evening_tally(session, evening, replay)
    elif over and head is not None and head.game_id is not None:
        context["newer_game"] = head.game_id  # the table plays on: the board can follow
    if evening_id is not None:
        context["table_board_url"] = links.board(evening_id, table)
        context["other_tables"] = evening_tables(
            session, evening or session.get(Evening, evening_id), but=table)
        if context["other_tables"]:
            context["tables_url"] = links.tables(evening_id)
    return _board_page("board.html", **context, evening=evening, point_name=point_name,
                       suit_name=suit_name, card_points=CARD_POINTS, links=links)


def render_table_board(evening: Evening, table: int, head: EveningHead,
                       links: BoardLinks = MEMBERS_BOARD) -> Response:
    """The board of the evening's table at ``head``, read before its game is."""
    session = get_session()
    game = current_game(evening_games(session, evening), table)
    return render_board(load_replay(session, game) if game else None, evening, table,
                        head=head, links=links)


def render_tables(evening: Evening, links: BoardLinks = MEMBERS_BOARD) -> Response:
    """The evening board: every table at once, each with its game's teams and scores and
    its next hand's dealer (or its winner), moving on to each table's next game by
    itself; and below, the evening's games won, once a game is."""
    session = get_session()
    head = evening_head(get_connection(), evening.club_id, evening.id, table=None)
    tables = evening_tables(session, evening)
    tally = evening_tally(session, evening, *(replay for _number, replay in tables))
    return _board_page("tables.html", evening=evening, tables=tables,
                       evening_tally=tally if tally.finished else None,
                       live_url=links.tables_live(head), links=links)


def render_no_evening(live_url: str, links: BoardLinks) -> Response:
    """A screen's board while the club has no evening tonight: it says so, and shows
    tonight's as soon as it begins (its poll, ``live_url``)."""
    return _board_page("board.html", evening=None, live_url=live_url, links=links)


def _board_page(template: str, **context) -> Response:
    """A board's page, or (its poll's answer) the board alone."""
    return render_page(template, block="board" if wants_fragment() else None, **context,
                       poll_every=POLL_SECONDS)


def board_poll(key: tuple, read: Callable[[Connection], Head | None],
               draw: Callable[[Head], Response]) -> Response:
    """A board's poll: 204 while the head the board depends on (``read``; held under
    ``key`` while it is as shown) is the version the board shows; else the board drawn
    at the head that moved, aside (never in another poll's way). 404 where there is no
    such board (not the club's, or a link revoked)."""
    shown = request.args.get("v", "")
    head = held(key, read(get_connection()), read, lambda head: head.version == shown)
    if head is None:
        abort(404)
    if head.version == shown:
        return unchanged_poll()
    return aside(lambda: draw(head))


def unchanged_poll() -> Response:
    """A poll's answer while nothing changed: empty, and never kept by a browser or a
    proxy (the next poll must ask again)."""
    unchanged = Response(status=204, headers={"Cache-Control": "no-store"})
    del unchanged.headers["Content-Type"]  # no body, so no type either
    return unchanged
