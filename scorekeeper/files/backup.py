"""Club backups (format scorekeeper-backup/1): the whole club as one JSON file, and back.

RULES.md, "Backups".

A backup holds the club, its players, its evenings and every game as a schmier-game/1
record (see exchange.py) with the ids that link them and the times each hand was
recorded, changed or undone; undone hands are kept too, so nothing recorded is lost.

A restore checks the whole file before it writes anything: every game is read and
replayed by exchange.read_game, as an imported game is, and every undone hand checked
by exchange.read_hand. It writes into an empty club only, keeps the file's ids, and
commits once: a file with anything wrong is refused whole and the database is left as
it was. The club is marked restored, so that the welcome page never offers it to a
newcomer: its owner comes back in by a one-time link (membership.fresh_owner_link).

Keys added to the format since its first files (an evening's closing, a game's
abandoning, what a change changed, a game's substitutes and their ids, the club's
seasons, a game's table where it is not the first, the members) may be left out: older
backups restore as before.

The server's own backups (the command line's: ``members=True``) also hold the club's
members, their devices and its live links, so that a whole server comes back with every
phone still signed in. A device is kept as its token's hash, never its token: a phone
is let in by a cookie that is the token signed with the server's secret, and the hash
is looked up from the token the cookie holds, so a hash lets nobody in (finding a token
of that hash means breaking SHA-256 on 256 random bits, and signing it the secret). A
live link does let anyone in: that is why the backup an owner downloads on the web
holds no members (it leaves the server, on phones and in mail), and a restore on the
web leaves the file's members out (the owner restoring it is the club's member).
Members are restored only into a database that has no members or links yet (but the
owner link create-club printed for the club restored into), with their ids; elsewhere
the club comes back without them and its owner by a new link.
Members' answers to planned evenings are not kept.
"""
from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Annotated, Any, Literal, Optional

from flask import current_app
from flask_babel import gettext as _, ngettext
from pydantic import (
    BaseModel, ConfigDict, Field, PlainValidator, StrictBool, StrictInt, StrictStr,
)
from pydantic import ValidationError
from pydantic_core import PydanticCustomError
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, delete, func, select

from scorekeeper.files import exchange
from scorekeeper.files.exchange import (
    ImportedGame, check_hand_count, export_game, hand_facts, read_game, read_hand,
)
from scorekeeper.files.json_files import (
    N_, FileRefused, AsWritten, Message, Typed, read_json, shape_refusal, shown,
)
from scorekeeper.rules import Deal, replay as replay_deals
from scorekeeper.store.models import (
    CLUB_NAME_LENGTH as MAX_CLUB_NAME, MAX_ID, NOTE_LENGTH as MAX_NOTE,
    PLACE_LENGTH as MAX_PLACE, PLAYER_NAME_LENGTH as MAX_NAME, SEASON_NAME_LENGTH,
    WHO_LENGTH as MAX_WHO, DEVICE_LABEL_LENGTH, ChangeKind, Club, Device, Evening, Game,
    SCREEN, GameChange, GameSeat, Hand, Invite, Ladder, Member, Player, Role, Season, utcnow,
)
from scorekeeper.store.replay import Replay, deal_from_hand, hand_fields, house_rules
from scorekeeper.store.rosters import live_invites
from scorekeeper.store.sittings import Sitting, names_at, sitting_at
from scorekeeper.table.seating import new_game
from scorekeeper.text.names import clean_name, name_key
from scorekeeper.web.forms import MOST_TABLES

FORMAT = "scorekeeper-backup/1"

# What a backup adds to a game's schmier-game/1 record, and to each of its hands.
BACKUP_GAME_KEYS = frozenset(
    {"evening_id", "changed_at", "first_dealer_drawn", "abandoned_at", "player_ids",
     "substitute_ids", "undone_hands", "changes", "table"}
)
BACKUP_HAND_KEYS = frozenset({"recorded_at", "updated_at", "to_confirm", "recorded_team",
                              "confirmed_team"})
TeamLetter = Literal["A", "B", "C"]


def backup_limit() -> int:
    """The most a backup file may be (the setting MAX_BACKUP_LENGTH)."""
    return current_app.config["MAX_BACKUP_LENGTH"]


# --- backup ---------------------------------------------------------------------------

def club_backup(session: Session, club: Club, members: bool = False) -> dict[str, Any]:
    """The club as a scorekeeper-backup/1 document; with its members, their devices and
    its live links for the server's own backups (``members``), never for the web's.
    Read in one snapshot: a game and its link made meanwhile are both in it or neither."""
    with one_snapshot(session):
        return _club_document(session, club, members)


@contextmanager
def one_snapshot(session: Session) -> Iterator[None]:
    """Every read inside sees the database as it was at the first: the reads of a club
    are several SELECTs, and a row made between two of them could name one the first
    left out (a link its game, a link its maker), giving a file no restore accepts."""
    session.commit()  # what the session wrote before is kept; its snapshot starts here
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
    else:
        # SQLite's driver reads each SELECT on its own; in one transaction, WAL gives
        # them the snapshot of the first.
        session.execute(text("BEGIN"))
    try:
        yield
    finally:
        session.rollback()  # it only read


def _club_document(session: Session, club: Club, members: bool) -> dict[str, Any]:
    players = session.exec(
        select(Player).where(Player.club_id == club.id).order_by(Player.id)).all()
    evenings = session.exec(
        select(Evening).where(Evening.club_id == club.id).order_by(Evening.id)).all()
    games = session.exec(select(Game).where(Game.club_id == club.id).order_by(Game.id)).all()
    # Seats and hands in one query each, not one per game: a club keeps years of games.
    seats: dict[int, list[GameSeat]] = defaultdict(list)
    for seat in session.exec(
        select(GameSeat).join(Game, Game.id == GameSeat.game_id).where(Game.club_id == club.id)
        .order_by(GameSeat.game_id, GameSeat.seat, GameSeat.from_hand)
    ):
        seats[seat.game_id].append(seat)
    hands: dict[int, list[Hand]] = defaultdict(list)
    for hand in session.exec(
        select(Hand).join(Game, Game.id == Hand.game_id).where(Game.club_id == club.id)
        .order_by(Hand.game_id, Hand.number, Hand.id)
    ):
        hands[hand.game_id].append(hand)
    changes: dict[int, list[GameChange]] = defaultdict(list)
    for change in session.exec(
        select(GameChange).join(Game, Game.id == GameChange.game_id)
        .where(Game.club_id == club.id).order_by(GameChange.game_id, GameChange.id)
    ):
        changes[change.game_id].append(change)
    names = {player.id: player.name for player in players}
    return {
        "format": FORMAT,
        "club": {"name": club.name, "created_at": _moment_text(club.created_at),
                 "confirm_hands": club.confirm_hands, "prefers_sixes": club.prefers_sixes},
        "players": [
            {"id": p.id, "name": p.name, "created_at": _moment_text(p.created_at)}
            for p in players
        ],
        "evenings": [
            {"id": e.id, "played_on": e.played_on.isoformat(), "place": e.place,
             "note": e.note, "created_at": _moment_text(e.created_at),
             "closed_at": _moment_text(e.closed_at), "confirm_hands": e.confirm_hands}
            for e in evenings
        ],
        "games": [_game_entry(game, seats[game.id], names, hands[game.id], changes[game.id])
                  for game in games],
        "seasons": _season_entries(session, club),
        **(_member_entries(session, club) if members else {}),
    }


def _member_entries(session: Session, club: Club) -> dict[str, list[dict[str, Any]]]:
    """The club's members with their devices, and its live links: what lets its phones in.
    Removed members, forgotten devices and dead links let nobody in, and are left out."""
    members = session.exec(select(Member).where(Member.club_id == club.id,
                                                Member.removed_at.is_(None))  # type: ignore[union-attr]
                           .order_by(Member.id)).all()
    devices: dict[int, list[Device]] = defaultdict(list)
    for device in session.exec(
        select(Device).where(Device.member_id.in_([m.id for m in members]),  # type: ignore[union-attr]
                             Device.forgotten_at.is_(None))  # type: ignore[union-attr]
        .order_by(Device.id)
    ):
        devices[device.member_id].append(device)
    kept = {member.id for member in members}
    invites = session.exec(live_invites().where(Invite.club_id == club.id)
                           .order_by(Invite.id)).all()
    live = {invite.id for invite in invites}
    return {
        "members": [
            {"id": m.id, "name": m.name, "role": m.role, "created_at": _moment_text(m.created_at),
             # The link they joined by, revoked if they are removed; a dead one is left
             # out with the link itself (it can't let them back anyway).
             "invite_id": m.invite_id if m.invite_id in live else None,
             "player_id": m.player_id,
             "devices": [{"id": d.id, "label": d.label, "token_hash": d.token_hash,
                          "created_at": _moment_text(d.created_at),
                          "last_seen_at": _moment_text(d.last_seen_at)}
                         for d in devices[m.id]]}
            for m in members
        ],
        "invites": [
            {"id": i.id, "role": i.role, "token": i.token, "code": i.code,
             "game_id": i.game_id,
             "created_by": i.created_by if i.created_by in kept else None,
             "created_at": _moment_text(i.created_at),
             "expires_at": _moment_text(i.expires_at)}
            for i in invites
        ],
    }


def _season_entries(session: Session, club: Club) -> list[dict[str, Any]]:
    return [{"name": season.name, "starts_on": season.starts_on.isoformat(),
             "ends_on": season.ends_on.isoformat(), "ranked_by": season.ranked_by,
             "min_evenings": season.min_evenings, "drop_worst": season.drop_worst,
             "created_at": _moment_text(season.created_at)}
            for season in session.exec(select(Season).where(Season.club_id == club.id)
                                       .order_by(Season.starts_on, Season.id))]


def backup_text(backup: dict[str, Any]) -> str:
    """The backup as the text of a file: one line per player, evening and game."""
    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    parts = []
    for key, value in backup.items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"  {line(item)}" for item in value)
            parts.append(f" {line(key)}: [\n{items}\n ]")
        else:
            parts.append(f" {line(key)}: {line(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def contents(players: int, evenings: int, games: int) -> str:
    """What a backup holds, in words: "12 players, 2 evenings and 3 games"."""
    return _("%(players)s, %(evenings)s and %(games)s",
             players=ngettext("%(num)s player", "%(num)s players", players),
             evenings=ngettext("%(num)s evening", "%(num)s evenings", evenings),
             games=ngettext("%(num)s game", "%(num)s games", games))


def backup_contents(backup: dict[str, Any]) -> str:
    return contents(len(backup["players"]), len(backup["evenings"]), len(backup["games"]))


def _moment_text(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _game_entry(
    game: Game, seats: list[GameSeat], names: dict[int, str], hands: list[Hand],
    changes: list[GameChange],
) -> dict[str, Any]:
    """A game's schmier-game/1 record, with its links, timestamps and undone hands."""
    live = tuple(hand for hand in hands if hand.undone_at is None)
    rules = house_rules(game)
    state = replay_deals(rules, game.first_dealer, [deal_from_hand(hand) for hand in live])
    seating = tuple(Sitting(row.seat, row.from_hand, names[row.player_id], row.player_id)
                    for row in seats)
    replay = Replay(game, rules, names_at(seating, state.next_number), live, state, seating)
    record = export_game(replay)
    for hand_record, hand in zip(record["hands"], live):
        hand_record["recorded_at"] = _moment_text(hand.recorded_at)
        hand_record["updated_at"] = _moment_text(hand.updated_at)
        if hand.to_confirm:
            hand_record.update(to_confirm=True, recorded_team=hand.recorded_team,
                               confirmed_team=hand.confirmed_team)
    entry: dict[str, Any] = {
        "id": game.id,
        "evening_id": game.evening_id,
        "created_at": _moment_text(game.created_at),
        "changed_at": _moment_text(game.changed_at),
        "first_dealer_drawn": game.first_dealer_drawn,
        "abandoned_at": _moment_text(game.abandoned_at),
        "player_ids": [sitting_at(seating, seat, 1).player_id
                       for seat in replay.rules.seat_numbers],
    }
    if game.table_number != 1:  # most clubs play at one table: their files stay as they were
        entry["table"] = game.table_number
    if replay.substitutes:  # in the order of the record's "substitutes"
        entry["substitute_ids"] = [sitting.player_id for sitting in replay.substitutes]
    entry.update((key, value) for key, value in record.items() if key not in entry)
    undone = sorted((hand for hand in hands if hand.undone_at is not None),
                    key=lambda hand: (hand.undone_at, hand.id))
    entry["undone_hands"] = [_undone_record(hand) for hand in undone]
    # The change log, by name: members and devices are not part of a backup.
    entry["changes"] = [
        {"at": _moment_text(change.at), "kind": change.kind, "number": change.number,
         "who": change.who, "hand_before": change.hand_before,
         "hand_after": change.hand_after, "totals_before": change.totals_before,
         "totals_after": change.totals_after, "details": change.details}
        for change in changes
    ]
    return entry


def _undone_record(hand: Hand) -> dict[str, Any]:
    """An undone hand: its number and times, and its facts as a game file writes a hand."""
    return {
        "number": hand.number,
        **hand_facts(hand),
        "recorded_at": _moment_text(hand.recorded_at),
        "updated_at": _moment_text(hand.updated_at),
        "undone_at": _moment_text(hand.undone_at),
    }


# --- restore: the file's shape --------------------------------------------------------

def _moment(value: Any) -> datetime:
    """A date and time as ISO text; one without an offset is UTC, as the app stores it."""
    if not isinstance(value, str):
        raise PydanticCustomError("moment", "not a date and time")
    try:
        moment = datetime.fromisoformat(value)
        if moment.tzinfo is None:
            return moment.replace(tzinfo=timezone.utc)
        # In UTC now: a time near year 1 or 9999 can't be moved there when stored.
        return moment.astimezone(timezone.utc)
    except (ValueError, OverflowError):
        raise PydanticCustomError("moment", "not a date and time") from None


def _day(value: Any) -> date:
    if not isinstance(value, str):
        raise PydanticCustomError("day", "not a date")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise PydanticCustomError("day", "not a date") from None


Moment = Annotated[datetime, PlainValidator(_moment)]
Day = Annotated[date, PlainValidator(_day)]


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClubFacts(_Part):
    name: StrictStr
    created_at: Moment
    confirm_hands: StrictBool = False  # not in backups made before clubs asked by default
    prefers_sixes: StrictBool = False  # not in backups made before tables of four and five


class PlayerFacts(_Part):
    id: StrictInt
    name: StrictStr
    created_at: Moment


class EveningFacts(_Part):
    id: StrictInt
    played_on: Day
    place: Optional[StrictStr] = None
    note: Optional[StrictStr] = None
    created_at: Moment
    closed_at: Optional[Moment] = None  # not in backups made before evenings were closed
    confirm_hands: StrictBool = False  # not in backups made before hands were confirmed


Evenings = Annotated[StrictInt, Field(ge=0, le=999)]


class SeasonFacts(_Part):
    name: Annotated[StrictStr, Field(min_length=1, max_length=SEASON_NAME_LENGTH)]
    starts_on: Day
    ends_on: Day
    ranked_by: Literal[tuple(ladder.value for ladder in Ladder)]  # type: ignore[valid-type]
    min_evenings: Evenings
    drop_worst: Evenings
    created_at: Moment


Roles = Literal[tuple(role.value for role in Role)]  # type: ignore[valid-type]
LinkRoles = Literal[(*(role.value for role in Role), SCREEN)]  # type: ignore[valid-type]


class DeviceFacts(_Part):
    """A member's device: its label and times, and its token's hash (never the token)."""

    id: StrictInt
    label: Annotated[StrictStr, Field(max_length=DEVICE_LABEL_LENGTH)] = ""
    token_hash: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    created_at: Moment
    last_seen_at: Optional[Moment] = None


class MemberFacts(_Part):
    id: StrictInt
    name: Annotated[StrictStr, Field(min_length=1, max_length=MAX_NAME)]
    role: Roles
    created_at: Moment
    devices: list[DeviceFacts] = []
    invite_id: Optional[StrictInt] = None  # not in backups made before it was kept
    player_id: Optional[StrictInt] = None  # not in backups made before members had players


class InviteFacts(_Part):
    """A live link, with its code: whoever has it may join (a screen link: show tonight's
    boards)."""

    id: StrictInt
    role: LinkRoles
    token: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    code: Annotated[StrictStr, Field(min_length=1, max_length=16)]
    game_id: Optional[StrictInt] = None
    created_by: Optional[StrictInt] = None
    created_at: Moment
    expires_at: Optional[Moment] = None


class BackupFacts(_Part):
    format: StrictStr
    club: ClubFacts
    players: list[PlayerFacts]
    evenings: list[EveningFacts]
    # Each game is read in two parts: what the backup adds (below), and the
    # schmier-game/1 record that exchange reads.
    games: list[dict[str, Any]]
    seasons: list[SeasonFacts] = []  # not in backups made before seasons
    # Only in the server's own backups, and not in those made before them.
    members: list[MemberFacts] = []
    invites: list[InviteFacts] = []


class UndoneHandFacts(BaseModel):
    """An undone hand: its number and times; the rest is a schmier-game/1 hand."""

    model_config = ConfigDict(extra="allow")

    number: StrictInt
    recorded_at: Moment
    updated_at: Optional[Moment] = None
    undone_at: Moment


Scores = dict[StrictStr, StrictInt]


# What a change did: to the hand it names, or (number 0) to the whole game.
HAND_CHANGES = (ChangeKind.RECORDED, ChangeKind.EDITED, ChangeKind.UNDONE, ChangeKind.RESTORED,
                ChangeKind.INSERTED, ChangeKind.CONFIRMED)
GAME_CHANGES = (ChangeKind.SEATS, ChangeKind.RENAMED, ChangeKind.SUBBED, ChangeKind.UNSUBBED,
                ChangeKind.ABANDONED, ChangeKind.REINSTATED)
CHANGE_KINDS = Literal[HAND_CHANGES + GAME_CHANGES]  # type: ignore[valid-type]


class ChangeFacts(_Part):
    """One entry of a game's change log."""

    at: Moment
    kind: CHANGE_KINDS
    number: Annotated[StrictInt, Field(ge=0)]  # the hand (0: the whole game); see _check_game
    who: Annotated[StrictStr, Field(max_length=MAX_WHO)]
    hand_before: Optional[Scores] = None
    hand_after: Optional[Scores] = None
    totals_before: Scores
    totals_after: Scores
    # What was changed (Joker B → C, the seats swapped), as the log tells it; not in
    # backups made before the log said so.
    details: Optional[dict[StrictStr, Any]] = None


class GameKeeping(BaseModel):
    """What a backup adds to a game record (the record's own keys are ignored here)."""

    model_config = ConfigDict(extra="ignore")

    id: StrictInt
    evening_id: Optional[StrictInt]
    created_at: Moment
    changed_at: Optional[Moment] = None
    first_dealer_drawn: StrictBool = False
    abandoned_at: Optional[Moment] = None  # not in backups made before games were abandoned
    player_ids: list[StrictInt]
    substitute_ids: list[StrictInt] = []  # not in backups made before substitutes
    undone_hands: list[UndoneHandFacts] = []
    changes: list[ChangeFacts] = []  # not in backups made before the log was kept
    table: Annotated[StrictInt, Field(ge=1, le=MOST_TABLES)] = 1  # left out for table 1


class HandTimes(BaseModel):
    """What a backup keeps of a live hand besides its facts: its times and, on a night
    played for a ranking, its confirmation (not in backups made before)."""

    model_config = ConfigDict(extra="ignore")

    recorded_at: Moment
    updated_at: Optional[Moment] = None
    to_confirm: StrictBool = False
    recorded_team: Optional[TeamLetter] = None
    confirmed_team: Optional[TeamLetter] = None


# --- restore: checking ----------------------------------------------------------------

@dataclass(frozen=True)
class UndoneHand:
    number: int
    deal: Deal
    recorded_at: datetime
    updated_at: datetime | None
    undone_at: datetime


@dataclass(frozen=True)
class BackupGame:
    """A game of the file that passed every check, with its links and times."""

    keeping: GameKeeping
    imported: ImportedGame
    hand_times: tuple[HandTimes, ...]
    undone: tuple[UndoneHand, ...]


@dataclass(frozen=True)
class CheckedBackup:
    """A backup that passed every check, ready to write."""

    club: ClubFacts
    players: tuple[PlayerFacts, ...]
    evenings: tuple[EveningFacts, ...]
    games: tuple[BackupGame, ...]
    seasons: tuple[SeasonFacts, ...] = ()
    members: tuple[MemberFacts, ...] = ()
    invites: tuple[InviteFacts, ...] = ()


def read_backup(raw: bytes | str, limit: int | None = None) -> CheckedBackup:
    """Check a backup whole: JSON, format, shape, ids and links, and every game replayed."""
    data = read_json(raw, limit, lambda size: Message(
        N_("the file is larger than %(size)s, the most a backup may be"), size=size))
    if not isinstance(data, dict):
        raise FileRefused(None, Message(N_("a backup holds one JSON object, not %(value)s"),
                                        value=AsWritten(shown(data))))
    _check_format(data)
    try:
        facts = BackupFacts.model_validate(data)
    except ValidationError as error:
        raise shape_refusal(error, FORMAT) from None
    _check_club(facts.club)
    players = _check_players(facts.players)
    evenings = _check_evenings(facts.evenings)
    games: list[BackupGame] = []
    first_of: dict[int, int] = {}
    for index, entry in enumerate(facts.games):
        games.append(_check_game(index, entry, players, evenings, first_of))
    _check_seasons(facts.seasons)
    _check_members(facts.members)
    _check_invites(facts.invites, {game.keeping.id for game in games},
                   {member.id for member in facts.members})
    _check_members_links(facts.members, {invite.id for invite in facts.invites}, players)
    return CheckedBackup(facts.club, tuple(facts.players), tuple(facts.evenings), tuple(games),
                         tuple(facts.seasons), tuple(facts.members), tuple(facts.invites))


def _check_format(data: dict[str, Any]) -> None:
    if "format" not in data:
        raise FileRefused("format", Message(
            N_('missing: a backup says "format": "%(format)s"'), format=AsWritten(FORMAT)))
    if data["format"] == exchange.FORMAT:
        raise FileRefused("format", Message(
            N_("this is one game (%(game_format)s), not a backup: import it as a game"),
            game_format=AsWritten(exchange.FORMAT)))
    if data["format"] != FORMAT:
        raise FileRefused("format", Message(
            N_("%(value)s is not %(format)s, the format this app restores"),
            value=AsWritten(shown(data["format"])), format=AsWritten(FORMAT)))


def _check_club(club: ClubFacts) -> None:
    if not clean_name(club.name):
        raise FileRefused("club.name", Message(N_("the club needs a name")))
    if len(club.name) > MAX_CLUB_NAME:
        raise FileRefused("club.name", Message(
            N_("a club's name may have at most %(limit)s letters"), limit=MAX_CLUB_NAME))


def _check_id(where: str, value: int, first_of: dict[int, int], part: str, index: int) -> None:
    """An id in range and not given twice (``first_of``: id -> the index that gave it)."""
    if not 0 < value <= MAX_ID:
        raise FileRefused(where, Message(
            N_("an id is a whole number from 1 to %(max)s, not %(id)s"),
            max=MAX_ID, id=AsWritten(value)))
    if value in first_of:
        raise FileRefused(where, _twice(AsWritten(value), f"{part}[{first_of[value]}]"))
    first_of[value] = index


def _twice(value: AsWritten | Typed, other: str) -> Message:
    """An id or a name given twice; ``other`` is the path of its first place."""
    return Message(N_("%(value)s is in the file twice (also %(other)s)"),
                   value=value, other=AsWritten(other))


def _check_players(players: list[PlayerFacts]) -> dict[int, PlayerFacts]:
    by_id: dict[int, int] = {}
    by_key: dict[str, int] = {}
    for index, player in enumerate(players):
        _check_id(f"players[{index}].id", player.id, by_id, "players", index)
        name = clean_name(player.name)
        where = f"players[{index}].name"
        if not name:
            raise FileRefused(where, Message(N_("a player needs a name")))
        if len(name) > MAX_NAME:
            raise FileRefused(where, Message(
                N_("a name may have at most %(limit)s letters"), limit=MAX_NAME))
        if name_key(name) in by_key:
            raise FileRefused(where, _twice(Typed(name), f"players[{by_key[name_key(name)]}]"))
        by_key[name_key(name)] = index
    return {player.id: player for player in players}


def _check_evenings(evenings: list[EveningFacts]) -> dict[int, EveningFacts]:
    by_id: dict[int, int] = {}
    for index, evening in enumerate(evenings):
        _check_id(f"evenings[{index}].id", evening.id, by_id, "evenings", index)
        for field, value, limit in (("place", evening.place, MAX_PLACE),
                                    ("note", evening.note, MAX_NOTE)):
            if value is not None and len(value) > limit:
                raise FileRefused(f"evenings[{index}].{field}", Message(
                    N_("at most %(limit)s letters, not %(length)s"),
                    limit=limit, length=len(value)))
    return {evening.id: evening for evening in evenings}


def _check_seasons(seasons: list[SeasonFacts]) -> None:
    """Each season's days in order, and no two sharing a day (as the app keeps them)."""
    for index, season in enumerate(seasons):
        if season.ends_on < season.starts_on:
            raise FileRefused(f"seasons[{index}].ends_on", Message(
                N_("the last day comes before the first")))
        for other, earlier in enumerate(seasons[:index]):
            if season.starts_on <= earlier.ends_on and earlier.starts_on <= season.ends_on:
                raise FileRefused(f"seasons[{index}]", Message(
                    N_("shares days with seasons[%(other)s]: seasons can't overlap"),
                    other=other))


def _check_members(members: list[MemberFacts]) -> None:
    """Ids in range and given once; no device's hash given twice (the database keeps one)."""
    member_ids: dict[int, int] = {}
    device_ids: dict[int, int] = {}
    hashes: dict[str, str] = {}
    for index, member in enumerate(members):
        _check_id(f"members[{index}].id", member.id, member_ids, "members", index)
        for position, device in enumerate(member.devices):
            where = f"members[{index}].devices[{position}]"
            _check_id(f"{where}.id", device.id, device_ids, "devices", position)
            _check_once(f"{where}.token_hash", device.token_hash, hashes, where)


def _check_invites(invites: list[InviteFacts], game_ids: set[int],
                   member_ids: set[int]) -> None:
    """Ids, tokens and codes given once; the game and member a link names in the file."""
    ids: dict[int, int] = {}
    tokens: dict[str, str] = {}
    codes: dict[str, str] = {}
    for index, invite in enumerate(invites):
        where = f"invites[{index}]"
        _check_id(f"{where}.id", invite.id, ids, "invites", index)
        _check_once(f"{where}.token", invite.token, tokens, where)
        _check_once(f"{where}.code", invite.code, codes, where)
        if invite.game_id is not None and invite.game_id not in game_ids:
            raise FileRefused(f"{where}.game_id", Message(
                N_("there is no game %(id)s in the file"), id=AsWritten(invite.game_id)))
        if invite.created_by is not None and invite.created_by not in member_ids:
            raise FileRefused(f"{where}.created_by", Message(
                N_("there is no member %(id)s in the file"), id=AsWritten(invite.created_by)))


def _check_members_links(members: list[MemberFacts], invite_ids: set[int],
                         players: dict[int, PlayerFacts]) -> None:
    """The link each member joined by, and the player each is, where the file names
    them, are the file's; a player is one member's at most."""
    whose: dict[int, int] = {}
    for index, member in enumerate(members):
        if member.invite_id is not None and member.invite_id not in invite_ids:
            raise FileRefused(f"members[{index}].invite_id", Message(
                N_("there is no link %(id)s in the file"), id=AsWritten(member.invite_id)))
        if member.player_id is not None:
            where = f"members[{index}].player_id"
            if member.player_id not in players:
                raise FileRefused(where, Message(N_("there is no player %(id)s in the file"),
                                                 id=AsWritten(member.player_id)))
            _check_id(where, member.player_id, whose, "members", index)


def _check_once(at: str, value: str, first_of: dict[str, str], where: str) -> None:
    """A token, code or hash the database keeps once: not twice in the file either."""
    if value in first_of:
        raise FileRefused(at, _twice(AsWritten(value), first_of[value]))
    first_of[value] = where


def _check_game(
    index: int, entry: dict[str, Any], players: dict[int, PlayerFacts],
    evenings: dict[int, EveningFacts], first_of: dict[int, int],
) -> BackupGame:
    """One entry of ``games``; ``first_of`` holds the game ids seen so far."""
    where = f"games[{index}]"
    try:
        keeping = GameKeeping.model_validate(entry)
    except ValidationError as error:
        raise shape_refusal(error, FORMAT, where) from None
    _check_id(f"{where}.id", keeping.id, first_of, "games", index)
    record = {key: value for key, value in entry.items() if key not in BACKUP_GAME_KEYS}
    hand_times: list[HandTimes] = []
    if isinstance(record.get("hands"), list):
        check_hand_count(record["hands"], where)
        # What a backup adds to each hand (its times) is read here, the rest below.
        record["hands"] = []
        for position, hand in enumerate(entry["hands"]):
            if isinstance(hand, dict):
                try:
                    hand_times.append(HandTimes.model_validate(hand))
                except ValidationError as error:
                    raise shape_refusal(error, FORMAT, f"{where}.hands[{position}]") from None
                hand = {key: value for key, value in hand.items()
                        if key not in BACKUP_HAND_KEYS}
            record["hands"].append(hand)
    # The game itself is checked as an imported game is, its messages pointed into it.
    imported = read_game(record, where)
    if keeping.evening_id is not None and keeping.evening_id not in evenings:
        raise FileRefused(f"{where}.evening_id", Message(
            N_("there is no evening %(id)s in the file"), id=AsWritten(keeping.evening_id)))
    _check_seat_players(where, keeping.player_ids, imported.names, players)
    _check_substitute_players(where, keeping.substitute_ids, imported.substitutes, players)
    undone = tuple(
        _check_undone(f"{where}.undone_hands[{position}]", hand, imported)
        for position, hand in enumerate(keeping.undone_hands)
    )
    for position, change in enumerate(keeping.changes):
        if change.number or change.kind in HAND_CHANGES:
            _check_hand_number(f"{where}.changes[{position}].number", change.number)
    return BackupGame(keeping, imported, tuple(hand_times), undone)


def _check_seat_players(
    where: str, player_ids: list[int], names: tuple[str, ...], players: dict[int, PlayerFacts]
) -> None:
    """Each seat's player id names a player of the file, the one the seat names."""
    if len(player_ids) != len(names):
        raise FileRefused(f"{where}.player_ids", Message(
            N_("a player id for each of the game's %(seats)s seats, not %(count)s"),
            seats=len(names), count=len(player_ids)))
    for index, (player_id, name) in enumerate(zip(player_ids, names)):
        _check_named_player(f"{where}.player_ids[{index}]", player_id, f"seats[{index}]",
                            name, players)


def _check_substitute_players(
    where: str, player_ids: list[int], substitutes: tuple[Sitting, ...],
    players: dict[int, PlayerFacts]
) -> None:
    """Each substitute's player id names a player of the file, the one it names."""
    if len(player_ids) != len(substitutes):
        raise FileRefused(f"{where}.substitute_ids", Message(
            N_("a player id for each of the %(count)s substitutes, not %(given)s"),
            count=len(substitutes), given=len(player_ids)))
    for index, (player_id, sitting) in enumerate(zip(player_ids, substitutes)):
        _check_named_player(f"{where}.substitute_ids[{index}]", player_id,
                            f"substitutes[{index}].name", sitting.name, players)


def _check_named_player(at: str, player_id: int, named: str, name: str,
                        players: dict[int, PlayerFacts]) -> None:
    """``player_id`` is a player of the file, the one ``named`` (a path) names."""
    player = players.get(player_id)
    if player is None:
        raise FileRefused(at, Message(N_("there is no player %(id)s in the file"),
                                      id=AsWritten(player_id)))
    if name_key(player.name) != name_key(name):
        raise FileRefused(at, Message(
            N_("player %(id)s is %(player)s, but %(seat)s is %(name)s"),
            id=AsWritten(player_id), player=Typed(clean_name(player.name)),
            seat=AsWritten(named), name=Typed(name)))


def _check_hand_number(where: str, number: int) -> None:
    if not 0 < number <= MAX_ID:
        raise FileRefused(where, Message(
            N_("a hand number is a whole number from 1 up, not %(number)s"),
            number=AsWritten(number)))


def _check_undone(where: str, hand: UndoneHandFacts, imported: ImportedGame) -> UndoneHand:
    _check_hand_number(f"{where}.number", hand.number)
    deal = read_hand(hand.model_extra, where, imported.rules, imported.first_dealer)
    return UndoneHand(hand.number, deal, hand.recorded_at, hand.updated_at, hand.undone_at)


# --- restore: writing -----------------------------------------------------------------

@dataclass(frozen=True)
class Restored:
    players: int
    evenings: int
    games: int
    hands: int
    members: int = 0  # restored with their devices: their phones are still signed in

    def contents(self) -> str:
        return contents(self.players, self.evenings, self.games)


def club_is_empty(session: Session, club: Club) -> bool:
    """No players, evenings or games yet: the only club a backup is restored into."""
    return all(
        session.exec(select(func.count()).select_from(model)
                     .where(model.club_id == club.id)).one() == 0
        for model in (Player, Evening, Game)
    )


NOT_EMPTY = Message(N_(
    "this scorekeeper already has players, evenings or games, and a backup is "
    "restored only into an empty one: start the app on a new database and "
    "restore there"))


def restore_backup(
    session: Session, club: Club, raw: bytes | str, limit: int | None = None,
    members: bool = False,
) -> Restored:
    """Check a backup and write it into the empty club, committing once (or FileRefused);
    with the file's members where ``members`` and nobody is let in here yet."""
    if not club_is_empty(session, club):
        # Merging can't tell a game already here from its copy in the file, nor Ann
        # here from another Ann there: restoring twice would double every game.
        raise FileRefused(None, NOT_EMPTY)
    backup = read_backup(raw, limit)
    keep = _database_is_empty(session)
    with_members = members and keep and _nobody_let_in(session, waiting=club)
    return _committed(session, lambda: _write(session, club, backup, keep, with_members))


def restore_server(session: Session, backups: dict[int, CheckedBackup]) -> dict[int, Restored]:
    """Each club's checked backup (by the club's id) into an empty database: the clubs
    with their own ids, made where missing, with their members; committed once."""
    if not (_database_is_empty(session) and _nobody_let_in(session)):
        raise FileRefused(None, NOT_EMPTY)
    clubs = {club_id: session.get(Club, club_id) or Club(id=club_id, name=backup.club.name)
             for club_id, backup in backups.items()}
    session.add_all(clubs.values())

    def write_every_club() -> dict[int, Restored]:
        session.flush()
        return {club_id: _write(session, clubs[club_id], backup, True, True)
                for club_id, backup in sorted(backups.items())}

    return _committed(session, write_every_club)


def _committed(session: Session, write):
    """What ``write`` wrote, committed once; nothing at all if it failed."""
    try:
        written = write()
        session.commit()
    except IntegrityError:
        session.rollback()
        # The ids are the file's, so a game or player added meanwhile collides with one.
        raise FileRefused(None, Message(N_(
            "a game was started while the backup was being restored; nothing was restored, "
            "try again"))) from None
    except Exception:
        session.rollback()
        raise
    return written


def _database_is_empty(session: Session) -> bool:
    """No club at all has players, evenings or games: the file's ids can be kept."""
    return all(session.exec(select(func.count()).select_from(model)).one() == 0
               for model in (Player, Evening, Game))


def _nobody_let_in(session: Session, waiting: Club | None = None) -> bool:
    """No members and no links yet: the file's members, devices and links keep their ids.
    The owner links of the club ``waiting`` for its owner (the one create-club printed)
    let nobody in yet, and count for nothing: restoring its members removes them."""
    if session.exec(select(func.count()).select_from(Member)).one():
        return False
    links = select(func.count()).select_from(Invite)
    if waiting is not None:
        links = links.where(~_owner_links(waiting))
    return session.exec(links).one() == 0


def _owner_links(club: Club):
    return (Invite.club_id == club.id) & (Invite.role == Role.OWNER)


def _write_game_rows(session: Session, entry, game: Game, players: dict[int, Player]) -> int:
    """A restored game's seats, hands, undone hands and change log; the hands written."""
    game_id, teams = game.id, entry.imported.rules.team_names
    for seat, player_id in enumerate(entry.keeping.player_ids, start=1):
        session.add(GameSeat(game_id=game_id, seat=seat, player_id=players[player_id].id))
    for sitting, player_id in zip(entry.imported.substitutes, entry.keeping.substitute_ids):
        session.add(GameSeat(game_id=game_id, seat=sitting.seat,
                             from_hand=sitting.from_hand, player_id=players[player_id].id))
    for number, (deal, times) in enumerate(zip(entry.imported.deals, entry.hand_times),
                                           start=1):
        # The same columns as a hand recorded at the table, so the two can't differ.
        session.add(Hand(game_id=game_id, number=number, **hand_fields(deal, teams),
                         recorded_at=times.recorded_at, updated_at=times.updated_at,
                         to_confirm=times.to_confirm, recorded_team=times.recorded_team,
                         confirmed_team=times.confirmed_team))
    for undone in entry.undone:
        session.add(Hand(game_id=game_id, number=undone.number,
                         **hand_fields(undone.deal, teams),
                         recorded_at=undone.recorded_at, updated_at=undone.updated_at,
                         undone_at=undone.undone_at))
    for change in entry.keeping.changes:
        session.add(GameChange(game_id=game_id, **change.model_dump()))
    return len(entry.imported.deals) + len(entry.undone)


def _write(session: Session, club: Club, backup: CheckedBackup, keep: bool,
           with_members: bool) -> Restored:
    """Add the backup's rows (not committed), its members too where ``with_members``.

    Into an empty database the file's ids are kept, so the restored pages have the
    addresses the old ones had. Where other clubs already keep rows, the database gives
    new ids (and the file's links are followed to them): a file's ids must never collide
    with, or push ahead of, another club's. Members are written only with the ids kept.
    """
    club.name = clean_name(backup.club.name)
    club.created_at = backup.club.created_at
    club.confirm_hands = backup.club.confirm_hands
    club.prefers_sixes = backup.club.prefers_sixes
    club.restored_at = utcnow()
    session.add(club)
    players: dict[int, Player] = {}
    for player in backup.players:
        players[player.id] = Player(
            id=player.id if keep else None, club_id=club.id, name=clean_name(player.name),
            name_key=name_key(player.name), created_at=player.created_at)
    evenings: dict[int, Evening] = {}
    for evening in backup.evenings:
        evenings[evening.id] = Evening(
            id=evening.id if keep else None, club_id=club.id, played_on=evening.played_on,
            place=evening.place, note=evening.note, created_at=evening.created_at,
            closed_at=evening.closed_at, confirm_hands=evening.confirm_hands)
    session.add_all([*players.values(), *evenings.values()])
    session.flush()  # the rows the games point at go in first
    games: list[Game] = []
    for entry in backup.games:
        keeping, rules = entry.keeping, entry.imported.rules
        evening = evenings[keeping.evening_id] if keeping.evening_id is not None else None
        games.append(new_game(
            club, rules, entry.imported.first_dealer, drawn=keeping.first_dealer_drawn,
            id=keeping.id if keep else None, evening_id=evening.id if evening else None,
            created_at=keeping.created_at, changed_at=keeping.changed_at,
            abandoned_at=keeping.abandoned_at, table_number=keeping.table,
        ))
    session.add_all(games)
    session.add_all(Season(club_id=club.id, **season.model_dump()) for season in backup.seasons)
    session.flush()
    hands = sum(_write_game_rows(session, entry, game, players)
                for entry, game in zip(backup.games, games))
    if with_members:
        _write_members(session, club, backup)
    session.flush()
    if keep:
        _continue_ids(session)
    return Restored(len(backup.players), len(backup.evenings), len(backup.games), hands,
                    len(backup.members) if with_members else 0)


def _write_members(session: Session, club: Club, backup: CheckedBackup) -> None:
    """The file's members, their devices and the club's live links, with the file's ids
    (so a link's game and maker, and the link a member joined by, are the file's own).
    The club's owner links go: its owners are back, and their ids may be the file's."""
    session.execute(delete(Invite).where(_owner_links(club)))
    session.add_all(Member(id=member.id, club_id=club.id, name=member.name, role=member.role,
                           created_at=member.created_at, player_id=member.player_id)
                    for member in backup.members)
    session.flush()  # the members the devices and links point at go in first
    session.add_all(Device(member_id=member.id, **device.model_dump())
                    for member in backup.members for device in member.devices)
    session.add_all(Invite(club_id=club.id, **invite.model_dump()) for invite in backup.invites)
    session.flush()
    # Then the link each joined by: removing them revokes it, so it can't let them back.
    for member in backup.members:
        session.get(Member, member.id).invite_id = member.invite_id


def _continue_ids(session: Session) -> None:
    """Make the next new row's id follow the restored ones."""
    # PostgreSQL takes ids from a sequence that rows written with their own ids don't
    # move; SQLite takes the largest id + 1 by itself.
    if session.get_bind().dialect.name != "postgresql":
        return
    for table in ("club", "player", "evening", "game", "member", "device", "invite"):
        session.execute(text(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), MAX(id)) FROM {table} "
            "HAVING COUNT(*) > 0"
        ))
