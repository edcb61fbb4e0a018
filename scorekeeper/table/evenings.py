"""Evenings: the dated gatherings that hold a club's games, and what they add up to."""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Sequence, TypeGuard

from sqlalchemy import bindparam, update
from sqlalchemy.engine import Connection, Row
from sqlmodel import Session, func, select

from scorekeeper.figures.rounds import Round, next_round, sit_outs_ahead
from scorekeeper.figures.teams import next_partners, partner_pairs, seated, split_of
from scorekeeper.store.kept import LockedLRU
from scorekeeper.store.models import Club, Evening, Game, GameSeat, aware, utcnow
from scorekeeper.store.replay import Replay, load_replays
from scorekeeper.store.rosters import club_row
from scorekeeper.store.sittings import until
from scorekeeper.table.confirming import waiting
from scorekeeper.table.live import evening_head
from scorekeeper.text.names import name_key

# A game started this long after the evening's last one still belongs to it: a card
# table's night runs past midnight.
SAME_EVENING = timedelta(hours=12)
# An evening nobody closed is over once none of its games was started or changed for
# this long: a mistake found the next afternoon can still be put right.
QUIET_HOURS = 36
QUIET = timedelta(hours=QUIET_HOURS)
EVENINGS_PER_PAGE = 20


def already_played(evening: Evening | Row) -> bool:
    """Made after its day: an evening already played (a club's history from paper),
    whose games are typed in afterwards. Nobody is asked whether they come to it, and
    it is never tonight's, however recent its games."""
    return aware(evening.created_at).date() > evening.played_on


def current_evening(session: Session, club: Club, now: datetime | None = None) -> Evening | None:
    """Tonight's evening (``tonight_id``)."""
    evening_id = tonight_id(session, club.id, now)
    return None if evening_id is None else session.get(Evening, evening_id)


# The club's latest evening up to a day, and an evening's newest game's start: built once,
# run without the ORM too (a screen's poll reads tonight's evening four times a second).
_LATEST_EVENING = (select(Evening.id, Evening.played_on, Evening.closed_at, Evening.created_at)
                   .where(Evening.club_id == bindparam("club_id"),
                          Evening.played_on <= bindparam("today"))
                   .order_by(Evening.played_on.desc(), Evening.id.desc()).limit(1))
_LAST_GAME = select(func.max(Game.created_at)).where(Game.evening_id == bindparam("evening_id"))


def tonight_id(reader: Session | Connection, club_id: int, now: datetime | None = None
               ) -> int | None:
    """The id of the club's evening of tonight: dated today, or with a game begun in the
    last twelve hours, and not closed (a game after the evening was closed opens a new
    one); never one ``already_played``. ``reader``: a session, or a connection (a few
    small reads, no ORM objects)."""
    now = now or utcnow()
    # An evening planned for a later day is not tonight's.
    latest = reader.execute(_LATEST_EVENING, {"club_id": club_id, "today": now.date()}).first()
    if latest is None or latest.closed_at is not None or already_played(latest):
        return None
    if latest.played_on == now.date():
        return latest.id
    last_game = reader.execute(_LAST_GAME, {"evening_id": latest.id}).scalar()
    if last_game is not None and now - aware(last_game) <= SAME_EVENING:
        return latest.id
    return None


def new_evening(club: Club, played_on: date, place: str = "", note: str = "") -> Evening:
    """An evening not yet stored: it is written with the game that opens it. It asks
    for each hand to be confirmed where its club does by default."""
    return Evening(club_id=club.id, played_on=played_on,
                   place=" ".join(place.split()) or None, note=note.strip() or None,
                   confirm_hands=club.confirm_hands)


def evening_of_day(session: Session, club: Club, day: date) -> Evening:
    """The evening a game played on ``day`` goes into (an imported one): the club's first
    evening of that day, or a new one (written with the game)."""
    found = session.exec(select(Evening).where(Evening.club_id == club.id,
                                               Evening.played_on == day)
                         .order_by(Evening.id)).first()  # type: ignore[arg-type]
    return found or new_evening(club, day)


def evening_games(session: Session, evening: Evening) -> list[Game]:
    """The evening's games in the order they were started, abandoned ones too."""
    return list(session.exec(
        select(Game).where(Game.evening_id == evening.id).order_by(Game.id)
    ))


def current_game(games: Sequence[Game], table: int = 1) -> Game | None:
    """The game a table is playing (or last finished): its newest not abandoned."""
    return next((game for game in reversed(games)
                 if game.abandoned_at is None and game.table_number == table), None)


def tables_now(games: Sequence[Game]) -> dict[int, Game]:
    """Each of the evening's tables, by number, with the game it plays (or last
    finished)."""
    numbers = sorted({game.table_number for game in games if game.abandoned_at is None})
    return {number: current_game(games, number) for number in numbers}


@dataclass(frozen=True)
class NightPlace:
    """A player's place in the night's ranking (``ranked``), and what it rests on."""

    place: int  # 1 first; players equal on every count share a place
    name: str
    played: int  # finished games they sat in
    won: int
    points: int  # their team's final scores in those games, added up

    @property
    def average(self) -> float | None:
        """Their team's average final score over those games (None: none finished)."""
        return self.points / self.played if self.played else None


@dataclass(frozen=True)
class EveningTally:
    """Games won in an evening, per player and per partnership (a team's players), most
    first; and the night's ranking, which weighs what each played."""

    games: int
    finished: int
    by_player: list[tuple[str, int]]
    by_partnership: list[tuple[str, int]]
    waiting: int = 0  # games won whose win counts once their hands are confirmed
    ranking: tuple[NightPlace, ...] = ()


def ranked(played: Counter[str], won: Counter[str], points: Counter[str]
           ) -> tuple[NightPlace, ...]:
    """The night's ranking (README, "The night's ranking"): by the share of their
    finished games a player won, so that sitting out a round costs nothing; then by
    games won; then by their teams' average final score; equal on all three, one place."""
    def merit(name: str) -> tuple:
        games = played[name]
        return (-(won[name] / games) if games else 0.0, -won[name],
                -(points[name] / games) if games else 0.0)

    places: list[NightPlace] = []
    for name in sorted({*played, *won}, key=lambda name: (merit(name), name.casefold())):
        place = len(places) + 1
        if places and merit(places[-1].name) == merit(name):
            place = places[-1].place
        places.append(NightPlace(place, name, played[name], won[name], points[name]))
    return tuple(places)


def hands_sat(replay: Replay) -> range:
    """The numbers of the game's hands played, to tell who sat at them (a game with no
    hand yet: its first, the six who start it)."""
    return range(1, max(len(replay.state.deals), 1) + 1)


def sat_for(replay: Replay, seats: Sequence[int]) -> set[str]:
    """Everyone who sat in ``seats`` at one of the game's hands at least: a substitute,
    and the player they took over from, both."""
    return {s.sitting.name for s in replay.stretches() if s.sitting.seat in seats}


def line_ups(replay: Replay, seats: Sequence[int]) -> set[str]:
    """The players in ``seats`` at each of the game's hands, "Ann & Dan", each line-up
    once however many hands it sat together."""
    return {" & ".join(sorted(replay.names_at(number)[seat] for seat in seats))
            for number in hands_sat(replay)}


@dataclass(frozen=True)
class GamePart:
    """What one game (not abandoned) adds to its evening's tally: everyone who sat for
    each team, and each line-up, with 1 for a win that counts (0 otherwise)."""

    finished: bool
    held: bool  # won, with hands still waiting for confirmation
    players: tuple[tuple[str, int], ...]
    line_ups: tuple[tuple[str, int], ...]
    points: tuple[tuple[str, int], ...] = ()  # each player's team's score, once it counts


# Each game's part, per state of the game (key: id, creation, revision): never stale, as
# a key stands for one state of a game only. Kept so that a page of one table reads the
# other tables' games as rows, not replays.
GAME_PARTS = LockedLRU(4096)


def game_part(replay: Replay) -> GamePart:
    """``replay``'s part of its evening's tally (see ``tally``)."""
    held = replay.state.finished and bool(waiting(replay))
    counts = replay.state.finished and not held  # its points count once it is won
    players: list[tuple[str, int]] = []
    points: list[tuple[str, int]] = []
    line_up_wins: list[tuple[str, int]] = []
    partners = not replay.rules.teams.cutthroat  # cutthroat: every player for themselves
    for team, seats in replay.rules.team_seats.items():
        won = int(replay.state.winner == team and not held)
        sat = sat_for(replay, seats)
        players += [(name, won) for name in sat]
        points += [(name, replay.state.scores[team]) for name in sat if counts]
        line_up_wins += [(line_up, won) for line_up in line_ups(replay, seats) if partners]
    return GamePart(replay.state.finished, held, tuple(players), tuple(line_up_wins),
                    tuple(points))


def _kept_part(replay: Replay) -> GamePart:
    key = (replay.game.id, replay.game.created_at, replay.game.revision)
    part = GAME_PARTS.get(key)
    if part is None:
        part = game_part(replay)
        GAME_PARTS.put(key, part)
    return part


def tally(replays: Sequence[Replay]) -> EveningTally:
    """Who won how many of the evening's games, most first; from the hands, never stored.

    Everyone who played and every partnership that sat together is listed, 0 wins
    too; an abandoned game counts for nobody, and a game won with hands still waiting
    for confirmation (``confirming``) counts once they are confirmed. A team's win counts
    once for each player who sat for it, substitutes too, and once for each of its
    line-ups."""
    return tally_of([_kept_part(replay) for replay in replays
                     if replay.game.abandoned_at is None])


def tally_of(parts: Sequence[GamePart]) -> EveningTally:
    """The evening's tally from its games' parts (abandoned games left out)."""
    players: Counter[str] = Counter()
    played: Counter[str] = Counter()
    points: Counter[str] = Counter()
    partnerships: Counter[str] = Counter()
    for part in parts:
        for name, won in part.players:
            players[name] += won
        for name, score in part.points if part.finished and not part.held else ():
            played[name] += 1
            points[name] += score
        for line_up, won in part.line_ups:
            partnerships[line_up] += won
    order = lambda item: (-item[1], item[0].casefold())  # noqa: E731
    return EveningTally(
        games=len(parts),
        finished=sum(1 for part in parts if part.finished),
        by_player=sorted(players.items(), key=order),
        by_partnership=sorted(partnerships.items(), key=order),
        waiting=sum(1 for part in parts if part.held),
        ranking=ranked(played, players, points),
    )


def partnerships(replays: Sequence[Replay]) -> Counter[frozenset[str]]:
    """How many of the evening's games each two players were partners in (in one team
    at one hand at least: a pair, or two of a trio); an abandoned game counts for
    nobody, and a cutthroat one makes no partners (each player is a team)."""
    together: Counter[frozenset[str]] = Counter()
    for replay in replays:
        if replay.game.abandoned_at is None:
            pairs: set[frozenset[str]] = set()  # each two once for the game
            for number in hands_sat(replay):
                chairs = [replay.names_at(number)[seat] for seat in replay.rules.seat_numbers]
                pairs.update(partner_pairs(split_of(chairs, replay.rules.teams)))
            together.update(pairs)
    return together


@dataclass(frozen=True)
class PartnersTonight:
    """Who has partnered whom tonight, and which two at the table now haven't yet
    (none where the table plays cutthroat, ``cutthroat_now``); ``games``: the evening's
    games that count (all cutthroat where they made no partners)."""

    together: list[tuple[tuple[str, str], int]]  # two partners, games together; most first
    not_yet: list[tuple[str, str]]
    games: int = 0
    cutthroat_now: bool = False


def partners_tonight(replays: Sequence[Replay], replay: Replay | None) -> PartnersTonight:
    """The evening's partnerships; ``not_yet``: of ``replay``'s players (the game the
    table is playing or last finished), none where each plays for themselves."""
    together = partnerships(replays)
    pair = lambda two: tuple(sorted(two, key=str.casefold))  # noqa: E731
    met = sorted(((pair(two), games) for two, games in together.items()),
                 key=lambda item: (-item[1], [name.casefold() for name in item[0]]))
    cutthroat = replay is not None and replay.rules.teams.cutthroat
    names = sorted(replay.names.values(), key=str.casefold) if replay and not cutthroat else []
    return PartnersTonight(met, [two for two in combinations(names, 2)
                                 if not together[frozenset(two)]],
                           sum(game.game.abandoned_at is None for game in replays), cutthroat)


def new_partners(replay: Replay, replays: Sequence[Replay]) -> tuple[str, ...]:
    """``replay``'s players seated for the evening's next game (seat by seat), each with
    a partner they haven't had tonight where possible (``teams.next_partners``)."""
    names = [replay.names[seat] for seat in replay.rules.seat_numbers]
    split = next_partners(names, replay.rules.teams, partnerships(replays))
    return seated(split, replay.rules.teams, names)


def played_tonight(replays: Sequence[Replay]) -> list[str]:
    """Everyone who sat at a game of the evening, in the order they first sat down (a
    substitute when they took the seat)."""
    names: dict[str, None] = {}
    for replay in replays:
        if replay.game.abandoned_at is None:
            names.update(dict.fromkeys(replay.names_at(1).values()))
            names.update(dict.fromkeys(sitting.name for sitting in replay.substitutes))
    return list(names)


@dataclass(frozen=True)
class LastGame:
    """The last game a player sat in tonight: when it began, and whether a substitute
    took their seat in it (they left it, for the night unless they come back)."""

    started: datetime
    replaced: bool


def last_games(replays: Sequence[Replay]) -> dict[str, LastGame]:
    """Each player who sat at a game of the evening (abandoned ones left out), by their
    name's key -> the last of those games."""
    found: dict[str, LastGame] = {}
    for replay in replays:  # in the order the games began: a later game's word wins
        if replay.game.abandoned_at is None:
            seating = replay.sittings()
            found.update((name_key(sitting.name), LastGame(
                aware(replay.game.created_at), until(seating, sitting) is not None))
                for sitting in seating)
    return found


def games_by_round(replays: Sequence[Replay]) -> list[list[Replay]]:
    """The evening's games round by round: each table's first game is round 1, its
    second round 2, and so on (abandoned games left out)."""
    by_table: dict[int, list[Replay]] = {}
    for replay in replays:
        if replay.game.abandoned_at is None:
            by_table.setdefault(replay.game.table_number, []).append(replay)
    return [[games[number] for _, games in sorted(by_table.items()) if len(games) > number]
            for number in range(max((len(games) for games in by_table.values()), default=0))]


def rounds_so_far(replays: Sequence[Replay], games: Sequence[Sequence[Replay]]
                  ) -> list[Round]:
    """The evening's rounds as played (``games``: ``games_by_round(replays)``); who
    played tonight but not in a round sat it out."""
    everyone = played_tonight(replays)
    rounds = []
    for played in games:
        tables = tuple(tuple(game.names_at(1)[seat] for seat in game.rules.seat_numbers)
                       for game in played)
        seated = {name for table in tables for name in table}
        rounds.append(Round(tables, tuple(name for name in everyone if name not in seated),
                            tuple(game.rules.teams for game in played)))
    return rounds


ROUNDS_AHEAD = 3  # whose turn it is to sit out, told this many rounds ahead


@dataclass(frozen=True)
class Proposal:
    """The evening's next round (``figures.rounds``), its tables already started (table
    number -> its game), and who sits out in each of the ``ROUNDS_AHEAD`` rounds after
    it while the same stay."""

    round: Round
    started: dict[int, int]
    sitting_out_after: list[tuple[str, ...]]


def proposed_round(replays: Sequence[Replay], present: Sequence[str], sixes: bool = False
                   ) -> Proposal:
    """The next round for everyone ``present`` (tables of four to six as the club
    prefers, ``sixes`` or not; each table's layout the evening's last at its size; the
    sit-outs in turn, partners and tables mixed). A round is started a table at a time:
    while some of its tables have started as proposed, the rest are proposed as they
    were."""
    games = games_by_round(replays)
    history = rounds_so_far(replays, games)
    played = [replay.rules.teams for replay in replays]
    if history:
        last = {game.game.id for game in games[-1]}
        before = next_round(present, history[:-1], [  # the layouts as they were
            replay.rules.teams for replay in replays if replay.game.id not in last], sixes)
        started = {game.game.table_number: game.game.id for game in games[-1]
                   if game.game.table_number <= len(before.tables)
                   and set(before.tables[game.game.table_number - 1])
                   == set(game.names_at(1).values())}
        if len(started) == len(games[-1]) < len(before.tables):
            return _proposal(present, history[:-1], before, started)
    return _proposal(present, history, next_round(present, history, played, sixes), {})


def _proposal(present: Sequence[str], history: list[Round], proposal: Round,
              started: dict[int, int]) -> Proposal:
    return Proposal(proposal, started,
                    sit_outs_ahead(present, [*history, proposal], ROUNDS_AHEAD))


def evenings_page(
    session: Session, club: Club, page: int, player_id: int | None = None
) -> tuple[list[Evening], bool]:
    """One page of the club's evenings, newest first (and whether there are more)."""
    query = select(Evening).where(Evening.club_id == club.id)
    if player_id is not None:
        query = query.where(Evening.id.in_(  # type: ignore[union-attr]
            select(Game.evening_id).join(GameSeat, GameSeat.game_id == Game.id)
            .where(GameSeat.player_id == player_id)
        ))
    rows = list(session.exec(
        query.order_by(Evening.played_on.desc(), Evening.id.desc())
        .offset((page - 1) * EVENINGS_PER_PAGE).limit(EVENINGS_PER_PAGE + 1)
    ))
    return rows[:EVENINGS_PER_PAGE], len(rows) > EVENINGS_PER_PAGE


# Each evening's tally, per state of the evening (key: id, creation, and its tables' head:
# newest game, every game's revision summed, games abandoned). Never stale: games never
# leave an evening, and each change to one raises its revision.
TALLIES = LockedLRU(256)
# Each evening's games as last counted here (key: id, creation): the state they are of and
# each game's revision and part. A later state whose every change is in the games a page
# read (the game it shows: a hand at that table) is counted from them, with no read of the
# evening's other games: at a big evening that read was a row for every table, each hand.
COUNTED = LockedLRU(256)


# A change to a game is written at most this long after the time it carries
# (``Game.changed_at``): the games changed since a count are read as those changed since
# it was read, less this. One written later, or carrying no time, leaves the evening's
# revisions summed short of its head's: the evening is read whole.
CHANGING = timedelta(seconds=5)


@dataclass(frozen=True)
class _Counted:
    key: tuple  # the evening's state (``TALLIES``' key)
    parts: dict[int, tuple[int, GamePart]]  # game id (in order) -> its revision, its part
    tally: EveningTally  # counted from them
    read_at: datetime  # when the games were read: each change before it is in ``parts``


def evening_tally(session: Session, evening: Evening, *known: Replay | None) -> EveningTally:
    """The evening's tally (``known``: games already read, before this reads the evening's
    head), worked out once for each state of the evening: with no change to any game of
    it, one small read; with changes only to games ``known``, no more; else a read of the
    games changed since the last count."""
    head = evening_head(session.connection(), evening.club_id, evening.id, table=None)
    key = (evening.id, evening.created_at, head.game_id, head.revisions, head.abandoned)
    found = TALLIES.get(key)
    if found is None:
        counted = _counted_at(session, evening, key, known)
        COUNTED.put(key[:2], counted)
        found = counted.tally
        TALLIES.put(key, found)
    return found


def _counted_at(session: Session, evening: Evening, key: tuple,
                known: Sequence[Replay | None]) -> _Counted:
    """The evening's games counted at state ``key``, from the last count where they lead
    to it (``_moved_on``, ``_changed_since``), else read whole."""
    counted = COUNTED.get(key[:2])
    parts = _moved_on(counted, key, known)
    if parts is not None:
        return _Counted(key, parts, _tally_again(counted, parts), counted.read_at)
    read_at = utcnow()
    parts = _changed_since(session, evening, counted, key, known)
    if parts is None:
        parts = _parts_now(session, evening, known, counted)
    return _Counted(key, parts, _tally_again(counted, parts), read_at)


def _tally_again(counted: _Counted | None, parts: dict[int, tuple[int, GamePart]]
                 ) -> EveningTally:
    """The tally of ``parts``: the one ``counted`` where every game's part is as counted
    there (most hands: one that neither ends its game nor changes who sits in it)."""
    now = [part for _revision, part in parts.values()]
    if counted is not None and list(counted.parts) == list(parts) and now == [
            part for _revision, part in counted.parts.values()]:
        return counted.tally
    return tally_of(now)


def _same_games(counted: _Counted | None, key: tuple) -> TypeGuard[_Counted]:
    """Whether the evening at state ``key`` holds the games ``counted``: none begun nor
    abandoned since (its newest game and the number abandoned as they were)."""
    return counted is not None and (counted.key[2], counted.key[4]) == (key[2], key[4])


def _moved_on(counted: _Counted | None, key: tuple, known: Sequence[Replay | None]
              ) -> dict[int, tuple[int, GamePart]] | None:
    """The games' parts at state ``key``, from those ``counted`` at an earlier state of the
    evening, where the games ``known`` rose by every revision the evening rose by: the
    others are as counted (revisions only rise; a game begun or abandoned changes the
    newest game or the number abandoned). None where they do not."""
    if not _same_games(counted, key):
        return None
    parts, risen = dict(counted.parts), 0
    for replay in {replay.game.id: replay for replay in known if replay is not None}.values():
        revision, was = replay.game.revision, parts.get(replay.game.id)
        if was is None or revision < was[0] or replay.game.abandoned_at is not None:
            return None
        if revision > was[0]:
            risen += revision - was[0]
            parts[replay.game.id] = (revision, _kept_part(replay))
    return parts if counted.key[3] + risen == key[3] else None


_REVISIONS = (select(Game.id, Game.created_at, Game.revision)
              .where(Game.evening_id == bindparam("evening_id"),
                     Game.abandoned_at.is_(None))  # type: ignore[union-attr]
              .order_by(Game.id))  # type: ignore[arg-type]
_CHANGED = _REVISIONS.where(Game.changed_at >= bindparam("since"))  # type: ignore[operator]


def _changed_since(session: Session, evening: Evening, counted: _Counted | None, key: tuple,
                   known: Sequence[Replay | None]) -> dict[int, tuple[int, GamePart]] | None:
    """The games' parts at state ``key``, from those ``counted`` at an earlier state of the
    evening and a read of the games changed since it was read (``CHANGING``), where those
    rose by every revision the evening rose by. None where they do not (a game begun or
    abandoned, a change written late)."""
    if not _same_games(counted, key):
        return None
    heads = session.connection().execute(_CHANGED, {
        "evening_id": evening.id, "since": counted.read_at - CHANGING}).all()
    if any(head.id not in counted.parts for head in heads):
        return None
    risen = sum(head.revision - counted.parts[head.id][0] for head in heads)
    if counted.key[3] + risen != key[3]:
        return None
    return {**counted.parts, **_parts_of(session, heads, known, counted)}


def _parts_now(session: Session, evening: Evening, known: Sequence[Replay | None],
               counted: _Counted | None) -> dict[int, tuple[int, GamePart]]:
    """The evening's games' parts read now (abandoned games left out). A game ``known`` as
    it was before its last change (another phone's, while this page read) is read again:
    the parts are kept under the evening's state now."""
    return _parts_of(session, session.connection().execute(
        _REVISIONS, {"evening_id": evening.id}).all(), known, counted)


def _parts_of(session: Session, heads: Sequence[Row], known: Sequence[Replay | None],
              counted: _Counted | None) -> dict[int, tuple[int, GamePart]]:
    """The parts of the games ``heads`` read (id, creation, revision). Each game's part is
    kept per state of the game: only a game changed since it was last counted here (in
    ``counted``, or in another evening state's count) is read and replayed."""
    revisions = {head.id: head.revision for head in heads}
    have = {replay.game.id: replay for replay in known if replay is not None
            and replay.game.revision == revisions.get(replay.game.id)}
    before = counted.parts if counted is not None else {}
    parts = {head.id: _part_as_counted(before.get(head.id), head) for head in heads}
    unread = [game_id for game_id, part in parts.items() if part is None and game_id not in have]
    if unread:
        have.update((replay.game.id, replay) for replay in load_replays(session, list(
            session.exec(select(Game).where(Game.id.in_(unread))))))  # type: ignore[union-attr]
    return {game_id: (revisions[game_id], part or _kept_part(have[game_id]))
            for game_id, part in parts.items()}


def _part_as_counted(counted: tuple[int, GamePart] | None, head: Row) -> GamePart | None:
    """A game's part at the revision ``head`` read: as counted, or as kept for it."""
    if counted is not None and counted[0] == head.revision:
        return counted[1]
    return GAME_PARTS.get(tuple(head))


def tonight_tally(session: Session, replay: Replay) -> EveningTally | None:
    """The tally of the game's evening, for the game page: once a game of it is won.

    A game page kept whole (page_cache) shows it as it was at that game's last change:
    a correction to another game of the evening shows with this game's next change."""
    if replay.game.evening_id is None:
        return None
    found = evening_tally(session, session.get(Evening, replay.game.evening_id), replay)
    return found if found.finished else None


@dataclass(frozen=True)
class EveningState:
    """Whether the evening's finished games can still be corrected, and why not."""

    closed_at: datetime | None  # closed on purpose by a scorer
    quiet_since: datetime | None  # its last change, once that is QUIET ago

    @property
    def over(self) -> bool:
        return self.closed_at is not None or self.quiet_since is not None


def last_change(session: Session, evening: Evening) -> datetime:
    """When a game of the evening was last started or changed (or the evening made), and
    never before its day began: an evening planned a week ahead is not quiet on its day."""
    latest = session.exec(
        select(func.max(func.coalesce(Game.changed_at, Game.created_at)))
        .where(Game.evening_id == evening.id)
    ).one()
    its_day = datetime.combine(evening.played_on, time(), tzinfo=timezone.utc)
    return max(aware(latest or evening.created_at), its_day)


def evening_state(session: Session, evening: Evening, now: datetime | None = None
                  ) -> EveningState:
    """Closed, quiet for QUIET, or still open to corrections (neither)."""
    latest = last_change(session, evening)
    quiet = (now or utcnow()) - latest >= QUIET
    closed = aware(evening.closed_at) if evening.closed_at else None
    return EveningState(closed, latest if quiet else None)


def open_after_its_day(session: Session, evening: Evening, today: date) -> bool:
    """Whether a game may be recorded into the evening after its day (one already played,
    from paper; or a game forgotten): dated before ``today`` and still open."""
    return evening.played_on < today and not evening_state(session, evening).over


def is_past_game(session: Session, replay: Replay) -> bool:
    """A finished game of an evening that is over: kept as it was, read-only.

    A game still in play stays open to be finished, whatever its evening."""
    if not replay.state.finished or replay.game.evening_id is None:
        return False
    return evening_is_over(session, replay.game.club_id, replay.game.evening_id)


def evening_is_over(session: Session, club_id: int, evening_id: int) -> bool:
    """The evening was closed, or has been quiet for QUIET: its finished games are kept
    as they were. Another evening begun meanwhile changes nothing."""
    evening = club_row(session, club_id, Evening, evening_id)
    return evening is None or evening_state(session, evening).over


def close_evening(session: Session, evening: Evening) -> bool:
    """Close the evening; False if it was closed already (a second tap, another phone).

    One UPDATE that only an open evening matches: two taps at once close it once."""
    closed = session.execute(
        update(Evening).where(Evening.id == evening.id, Evening.closed_at.is_(None))
        .values(closed_at=utcnow()).execution_options(synchronize_session=False)
    ).rowcount
    session.commit()
    session.refresh(evening)
    return closed == 1


def reopen_evening(session: Session, evening: Evening) -> bool:
    """Open a closed evening again; False if it was open already."""
    opened = session.execute(
        update(Evening).where(Evening.id == evening.id, Evening.closed_at.is_not(None))
        .values(closed_at=None).execution_options(synchronize_session=False)
    ).rowcount
    session.commit()
    session.refresh(evening)
    return opened == 1
