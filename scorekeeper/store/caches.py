"""Every cache of the app, declared once: the list of them is this module.

``KEPT``: the figures worked out from the hands and kept in the database, each with its
table, key, stamp and batch recount (``kept.KeptFigure``); ``kept`` is the one way they are
proven current and kept. ``OTHERS``: every other cache (in this process, in a request, or
a copy of a render in the database), where the source makes it, what it keeps, its key
and why it is never stale. ``NOT_CACHES``: what is held the same way (in ``g``, in
``app.extensions``) and is no cache.

A place is ``module:name`` as the source makes it: a module's name, a function's (a
memoised one, ``outer.inner`` inside another), ``Class._attribute``, ``g.name``, or
``app.extensions['name']``. The tests read the source for every cache it makes and fail
on one not listed here, and on an entry here the source no longer makes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.store.kept import KeptFigure
from scorekeeper.store.models import (
    ClubRatings, ClubSummary, KeptAnswer, PlayerPairs, PlayerRating, RatedGame, SeatSummary,
)

SUMMARIES = "scorekeeper.figures.summaries"
RATINGS = "scorekeeper.figures.ratings"

SEAT_ROWS = KeptFigure(
    name="statistics' seat rows", keeps="each player's figures from one stretch of a game",
    store=SeatSummary, key=("game_id", "seat", "from_hand"), stamp="revision",
    recount=f"{SUMMARIES}._recount", stale="the game's revision is not the rows'")
CLUB_SUMS = KeptFigure(
    name="statistics' club sums", keeps="each player's sums over the club's counted games",
    store=ClubSummary, key=("club_id",), stamp="stamp", recount=f"{SUMMARIES}._summed",
    stale="the club's stamp is not the one kept")
PAIRS = KeptFigure(
    name="partners and rivals", keeps="one player's games with each partner and opponent",
    store=PlayerPairs, key=("player_id",), stamp="stamp",
    recount=f"{SUMMARIES}._at_one_table",
    stale="the club's stamp is not the one kept (kept only with the club's sums current)")
RATED_GAMES = KeptFigure(
    name="rated games", keeps="when each game finished (or that it is no match), with "
    "each of its players' rating after it (``PlayerRating`` rows, written with it)",
    store=RatedGame, key=("game_id",), stamp="revision", recount=f"{RATINGS}._looked_at",
    stale="the game's revision is not the one kept, or a game finishing before it changed")
CLUB_RATINGS = KeptFigure(
    name="club ratings", keeps="everyone's latest rating", store=ClubRatings,
    key=("club_id",), stamp="stamp", recount=f"{RATINGS}._rated_again",
    stale="the club's stamp is not the one kept")

KEPT = (SEAT_ROWS, CLUB_SUMS, PAIRS, RATED_GAMES, CLUB_RATINGS)
# Tables written only with a kept figure's own rows, under its stamp.
ALONGSIDE = {PlayerRating: RATED_GAMES}


@dataclass(frozen=True)
class Entry:
    """A cache other than a kept figure, as the list declares it: the places that make
    it (``module:name``), what it keeps, its key, and why it is never stale; ``table``:
    the one it is kept in, for one kept in the database."""

    places: tuple[str, ...]
    keeps: str
    key: str
    never_stale: str
    table: Any = None


RULES_ARE_CODE = "the rules are code"
ONE_STATE = "a key stands for one state of a game only"
ONE_REQUEST = "it lives for one request, and a change the request makes is written to it"

OTHERS = (
    Entry(("scorekeeper.rules.needs:_worked_needs",),
          "what each team needs to go out in the next hand", "the house rules and the scores",
          RULES_ARE_CODE),
    Entry(("scorekeeper.figures.chances:teams_from",),
          "the teams in the order their seats follow a dealer", "the layout and the dealer",
          RULES_ARE_CODE),
    Entry(("scorekeeper.figures.chances:scored",),
          "a hand's shape as the rules engine scores it, for each dealer's team",
          "the layout and the shape", RULES_ARE_CODE),
    Entry(("scorekeeper.figures.chances:GAME_HANDS",), "a game's played hands, as shapes",
          "the game's id, creation and revision", ONE_STATE),
    Entry(("scorekeeper.figures.chances:DECKS",),
          "a game's club's hands, scored", "the game's id, creation and "
          "house rules", "the hands recorded before the game began never change"),
    Entry(("scorekeeper.figures.chances:VERDICTS",),
          "the rules engine's verdicts on a game's end", "the house rules", RULES_ARE_CODE),
    Entry(("scorekeeper.figures.chances:CHANCES",), "a game's chances to win",
          "the game's id, creation and revision", ONE_STATE),
    Entry(("scorekeeper.figures.teams:next_partners.fresh_games",),
          "the most games of new partners that can follow a choice of partners",
          "the partnerships used", "it lives for one call, which it was made for"),
    Entry(("scorekeeper.store.migrate:newest",), "the newest revision(s) of the schema",
          "none", "the migration scripts are code"),
    Entry(("scorekeeper.store.replay:Replays._kept",), "each game's last replay",
          "the game's id", "checked against the deals read each time, never trusted"),
    Entry(("scorekeeper.table.evenings:GAME_PARTS",), "each game's part of its evening's "
          "tally", "the game's id, creation and revision", ONE_STATE),
    Entry(("scorekeeper.table.evenings:TALLIES",), "each evening's tally",
          "the evening's id and creation, its newest game, its games' revisions summed and "
          "how many are abandoned", "games never leave an evening, and each change to one "
          "raises its revision"),
    Entry(("scorekeeper.table.evenings:COUNTED",), "each evening's games as last counted "
          "for its tally: each one's revision and part, and the tally, under the evening's "
          "state then", "the evening's id and creation", "a later state is counted from it "
          "only where the games a page read, or those changed since it was read, rose by "
          "every revision the evening rose by, else read afresh; a part is reused at its "
          "revision only, the tally where every part is"),
    Entry(("scorekeeper.views.page_cache:PageCache._pages",
           "scorekeeper.views.page_cache:app.extensions['page_cache']"),
          "rendered game pages and poll answers", "the game's id, creation, revision and "
          "draft, the reader's role, language and player", ONE_STATE),
    Entry(("scorekeeper.views.page_cache:app.extensions['shared_answers']",),
          "poll answers rendered by any app server, for a few minutes",
          "a digest of the page cache's key and of the app's files", ONE_STATE,
          table=KeptAnswer),
    Entry(("scorekeeper.views.page_cache:FINISHED",), "whether a game of an evening is "
          "finished", "the game's id, creation and revision", ONE_STATE),
    Entry(("scorekeeper.views.page_cache:_digest_of",), "a digest of the app's files",
          "the folders", "the files are the app's own, read once at start"),
    Entry(("scorekeeper.web.assets:StaticFiles.read",), "a static file as it is on disk, and "
          "the modules it imports", "the app's static files, the file's name and "
          "modification time", "a changed file has another time"),
    Entry(("scorekeeper.web.assets:StaticFiles.linked",), "a module as sent, each import at "
          "its fingerprinted address", "the app's static files, the file's name, "
          "modification time and its imports' fingerprints",
          "a changed file, or a changed import, has another key"),
    Entry(("scorekeeper.web.assets:StaticFiles.fingerprint",), "a static file's digest",
          "the file as sent", "another file is another key"),
    Entry(("scorekeeper.web.assets:StaticFiles.minified",), "a static file, minified",
          "the app's static files, the file's name and its fingerprint",
          "a changed file has another fingerprint"),
    Entry(("scorekeeper.web.extensions:CompiledTemplates",), "each template, compiled",
          "the template's name and a digest of its source", "Jinja checks the digest"),
    Entry(("scorekeeper.web.extensions:app.extensions[name]",),
          "the signers made from the app's secret", "their name and the secret keys",
          "made again when the secret changes"),
    Entry(("scorekeeper.web.languages:g._translations",), "the request's catalogue",
          "the request", ONE_REQUEST),
    Entry(("scorekeeper.views.lookup:g.tables_read",), "the games the request replayed",
          "the game's id", ONE_REQUEST),
    Entry(("scorekeeper.clubs.access:g.device", "scorekeeper.clubs.access:g.member"),
          "the device and member the request comes from", "the request", ONE_REQUEST),
)

# Held in ``g`` or ``app.extensions`` like a cache, and no cache: what is held, why.
NOT_CACHES = {
    "scorekeeper.store.db:app.extensions['db_engine']": "the database engine",
    "scorekeeper.store.db:app.extensions['db_drawing_engine']":
        "the render threads' own engine, on a database server",
    "scorekeeper.store.db:g.db_connection": "the request's connection",
    "scorekeeper.store.db:g.db_session": "the request's session",
    "scorekeeper.web.aside:app.extensions['render_pool']": "the threads pages render in",
    "scorekeeper.table.waiting:extensions['live_watch']": "the polls waiting for a change",
    "scorekeeper.store.kept:LockedLRU._kept": "the cache type: each one made is listed",
}


def places() -> set[str]:
    """Every place listed here, caches and not."""
    return {place for cache in OTHERS for place in cache.places} | set(NOT_CACHES)
