"""The database's tables. Scores are never stored: they are replayed from the hands."""
from __future__ import annotations

from datetime import date, datetime, timezone
from enum import StrEnum
from typing import Any, Optional

from sqlalchemy import (
    BigInteger, Boolean, JSON, Column, Float, ForeignKey, Index, Integer, Text, UniqueConstraint,
    false, text,
)
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def aware(moment: datetime) -> datetime:
    """A stored moment as UTC: SQLite gives back datetimes without their zone."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


# The longest texts the columns hold: forms, files and commands check against these.
CLUB_NAME_LENGTH = 80
PLAYER_NAME_LENGTH = 40  # a player on the roster, and a member of the club
PLACE_LENGTH = 80
NOTE_LENGTH = 500
SEASON_NAME_LENGTH = 80
DEVICE_LABEL_LENGTH = 80
WHO_LENGTH = 130  # who made a change, as they were called then ("Ann (Chrome on …)")
ENTRY_KEY_LENGTH = 40
# The largest id an INTEGER column holds (PostgreSQL's; SQLite's is larger): a bigger
# number in a URL or a command is no row, not an overflow in the database driver.
MAX_ID = 2**31 - 1


class Role(StrEnum):
    """What a member may do in their club: ``Member.role`` and ``Invite.role`` hold these
    words (backups too)."""

    OWNER = "owner"  # lets others in, sees and restores the backup, and keeps score
    SCORER = "scorer"  # records and corrects hands, starts games
    VIEWER = "viewer"  # watches: every change is refused


# ``Invite.role`` of a screen link: it lets nobody in, and shows the club's boards of
# tonight, read-only, to whoever opens it (a TV on the wall), week after week.
SCREEN = "screen"


class ChangeKind(StrEnum):
    """What one change did to a game: ``GameChange.kind`` holds these words (backups and
    game files too)."""

    RECORDED = "recorded"  # a hand recorded
    EDITED = "edited"  # a recorded hand changed
    UNDONE = "undone"  # the last hand undone (kept, marked undone)
    RESTORED = "restored"  # an undone hand brought back
    INSERTED = "inserted"  # a forgotten hand put in before another
    SEATS = "seats"  # two seats swapped
    RENAMED = "renamed"  # a seat's player changed
    SUBBED = "subbed"  # a substitute took a seat from hand ``number`` on
    UNSUBBED = "unsubbed"  # that taken back
    ABANDONED = "abandoned"  # the game abandoned: kept, out of the statistics
    REINSTATED = "reinstated"  # an abandoned game taken back into play
    CONFIRMED = "confirmed"  # a hand confirmed by a phone of another team than its writer's


class Club(SQLModel, table=True):
    """A group that plays together; every player and game belongs to one."""

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(max_length=CLUB_NAME_LENGTH)
    created_at: datetime = Field(default_factory=utcnow)
    # Set when a backup was restored into it: the welcome page never offers to take it
    # over; its owner comes back in by the one-time link the restore prints.
    restored_at: Optional[datetime] = None
    # Its evenings are played for a ranking unless a scorer says otherwise: each new
    # evening starts with ``Evening.confirm_hands`` on (``table.confirming``).
    confirm_hands: bool = Field(default=False, sa_column=Column(
        "confirm_hands", Boolean, nullable=False, server_default=false()))
    # How an evening's next round cuts those present into tables of four to six: as many
    # sixes as fit, or (off) the fewest tables, as even as can be (``figures.rounds``).
    prefers_sixes: bool = Field(default=False, sa_column=Column(
        "prefers_sixes", Boolean, nullable=False, server_default=false()))


class Player(SQLModel, table=True):
    """A name on the club's roster."""

    __table_args__ = (UniqueConstraint("club_id", "name_key", name="uq_player_club_name"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    club_id: int = Field(foreign_key="club.id", index=True)
    name: str = Field(max_length=PLAYER_NAME_LENGTH)
    # The name folded for comparison, so "Ann" and "ann " are one player. Folding can
    # lengthen a name ("ß" -> "ss"), hence room for twice the letters.
    name_key: str = Field(max_length=2 * PLAYER_NAME_LENGTH)
    created_at: datetime = Field(default_factory=utcnow)


class Evening(SQLModel, table=True):
    """A dated gathering of the club: the games played that night."""

    id: Optional[int] = Field(default=None, primary_key=True)
    club_id: int = Field(foreign_key="club.id", index=True)
    played_on: date = Field(index=True)
    place: Optional[str] = Field(default=None, max_length=PLACE_LENGTH)
    note: Optional[str] = Field(default=None, max_length=NOTE_LENGTH)
    created_at: datetime = Field(default_factory=utcnow)
    # Closed by a scorer on purpose: its games are kept as they were from then on.
    closed_at: Optional[datetime] = None
    # A night played for a ranking: each hand written from then on waits for a phone of
    # another team to confirm it (``table.confirming``).
    confirm_hands: bool = Field(default=False, sa_column=Column(
        "confirm_hands", Boolean, nullable=False, server_default=false()))


class Attendance(SQLModel, table=True):
    """A member's answer to a planned evening: coming or not (one answer each, the
    latest kept). The organiser counts tables from it; seating starts from who is in."""

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    member_id: int = Field(foreign_key="member.id", primary_key=True)
    coming: bool
    said_at: datetime = Field(default_factory=utcnow)


class GoneTonight(SQLModel, table=True):
    """A scorer's latest word on a player this evening: gone home for the night, or back
    (``table.attendance.whereabouts``). The player by their name's key: one who said
    "I'm in" may have no roster row yet."""

    __tablename__ = "gone_tonight"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    name_key: str = Field(primary_key=True, max_length=2 * PLAYER_NAME_LENGTH)
    gone: bool
    said_at: datetime = Field(default_factory=utcnow)


class Ladder(StrEnum):
    """What a season's ladder ranks its players by: ``Season.ranked_by`` holds these
    words. README's "Seasons" defines each."""

    GAMES_WON = "won"  # games won in the evenings counted, most first
    PLACE = "place"  # the average finishing place in the evenings counted, lowest first
    RATING = "rating"  # the rating gained in the evenings counted, most first


class Season(SQLModel, table=True):
    """A named stretch of the club's evenings (both dates included) with the rule of its
    ladder. The standings are worked out from the hands each time, never stored."""

    id: Optional[int] = Field(default=None, primary_key=True)
    club_id: int = Field(foreign_key="club.id", index=True)
    name: str = Field(max_length=SEASON_NAME_LENGTH)
    starts_on: date
    ends_on: date
    ranked_by: str = Field(default=Ladder.GAMES_WON, max_length=8)  # a ``Ladder``
    min_evenings: int = 0  # evenings played to qualify
    drop_worst: int = 0  # a player's worst evenings left out of the figure
    created_at: datetime = Field(default_factory=utcnow)


# Bumped by every change to a game's hands. SQLAlchemy checks it on each write
# (UPDATE ... WHERE revision = the one read), so two phones changing one game at once
# can't both succeed, and a page shown before another phone's change can't write.
_game_revision = Column("revision", Integer, nullable=False, server_default=text("0"))


class Game(SQLModel, table=True):
    """One game, with the house rules it was started with."""

    __mapper_args__ = {"version_id_col": _game_revision}
    # The club's games' stamp (``kept.stamp_of``), read on every page of figures, is
    # added up from ix_game_stamp alone. A game's evening's games, and the newer game at
    # its table (``table.live``: every watched game's, four times a second), are found
    # by ix_game_table.
    __table_args__ = (Index("ix_game_stamp", "club_id", "revision", "abandoned_at"),
                      Index("ix_game_table", "evening_id", "table_number", "id"))

    id: Optional[int] = Field(default=None, primary_key=True)
    club_id: int = Field(foreign_key="club.id", index=True)
    evening_id: Optional[int] = Field(default=None, foreign_key="evening.id")
    teams: str = Field(default="3x2", max_length=3)
    target: int = 21
    # Every house rule the game was started with, by name (``rules.house``): one
    # document, so that a rule added later needs no column of its own.
    house_rules: dict[str, Any] = Field(default_factory=dict, sa_column=Column(
        "house_rules", JSON, nullable=False, server_default=text("'{}'")))
    first_dealer: int
    first_dealer_drawn: bool = False
    created_at: datetime = Field(default_factory=utcnow)
    revision: int = Field(default=0, sa_column=_game_revision)
    changed_at: Optional[datetime] = None  # the game's last change of any kind (``GameChange``)
    # Abandoned on purpose: kept, shown as abandoned, out of the statistics; taken back
    # into play by a "reinstated" change.
    abandoned_at: Optional[datetime] = None
    # Which of the evening's tables plays it (1 where the club plays at one): each table
    # follows its own games, phones and board.
    table_number: int = Field(default=1, sa_column=Column(
        "table_number", Integer, nullable=False, server_default=text("1")))


class GameSeat(SQLModel, table=True):
    """Who sits in which seat of a game, from which hand on. The six a game starts with
    sit from hand 1; a substitute who takes a seat during the game sits from the hand
    they took it at, the seat's player before them having played the hands before
    (``store.sittings.Sitting``). A player sits in one seat, once, in a game."""

    __table_args__ = (UniqueConstraint("game_id", "player_id", name="uq_seat_game_player"),)

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    seat: int = Field(primary_key=True)
    from_hand: int = Field(default=1, sa_column=Column(
        "from_hand", Integer, primary_key=True, nullable=False, server_default=text("1")))
    player_id: int = Field(foreign_key="player.id", index=True)


class Hand(SQLModel, table=True):
    """One deal as the table recorded it: the auction, trump and who took each point.

    An undone hand is kept (``undone_at`` set) so that nothing recorded is ever lost;
    only one live hand may hold a number in a game, which also stops a double record.
    """

    __table_args__ = (
        Index(
            "uq_hand_game_number_live", "game_id", "number", unique=True,
            sqlite_where=text("undone_at IS NULL"),
            postgresql_where=text("undone_at IS NULL"),
        ),
        # One hand per entry: the same entry sent twice at once can't be kept twice.
        Index("uq_hand_game_entry", "game_id", "entry_key", unique=True),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    number: int
    calls: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    trump: Optional[str] = Field(default=None, max_length=8)
    # {"high": "A", "low": "B", "right": ..., "left": ..., "joker": ..., "game": "A" | None}
    points: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))
    # A number per team when the table counted game values; Game is decided from them.
    game_values: Optional[dict[str, int]] = Field(default=None, sa_column=Column(JSON))
    recorded_at: datetime = Field(default_factory=utcnow)
    updated_at: Optional[datetime] = None
    undone_at: Optional[datetime] = None
    # The phone's own name for the entry that recorded it (random, made when Record was
    # tapped): a phone sending that entry again, after an answer lost to the network,
    # is told it was recorded instead of recording it twice.
    entry_key: Optional[str] = Field(default=None, max_length=ENTRY_KEY_LENGTH)
    # Written while its evening asks for confirmation: it waits for a phone of another
    # team than the one that wrote it (``recorded_team``; None: a phone that never said
    # whose it is) until one confirms it (``confirmed_team``). Written again, it waits again.
    to_confirm: bool = Field(default=False, sa_column=Column(
        "to_confirm", Boolean, nullable=False, server_default=false()))
    recorded_team: Optional[str] = Field(default=None, max_length=1)
    confirmed_team: Optional[str] = Field(default=None, max_length=1)

    @property
    def thrown_in(self) -> bool:
        """All six passed: no trump, no points (``store.replay.hand_fields``)."""
        return self.points is None

    @property
    def awaits_confirmation(self) -> bool:
        return self.to_confirm and self.confirmed_team is None and self.undone_at is None

    @property
    def confirmed(self) -> bool:
        """Confirmed by a phone of another team than the one that wrote it."""
        return self.to_confirm and self.confirmed_team is not None


class SeatSummary(SQLModel, table=True):
    """What one seat of one game adds to its player's statistics: a cache, never a record.

    Counted from the replayed hands by ``scorekeeper.figures.stats`` and tagged with the game's
    revision when it was counted. Every change to a game bumps the revision, and the
    statistics pages recount any game whose rows carry another revision before they add
    anything up (``scorekeeper.figures.summaries``), so a row can't drift from the hands. It lets
    a club with years of evenings add up its leaderboard in one indexed query instead of
    replaying every game on every page.
    """

    __tablename__ = "seat_summary"

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    seat: int = Field(primary_key=True)
    # The player's stretch of hands in the seat (``store.sittings.Stretch``): partners are the
    # players of one team who sat at the table at one hand at least.
    from_hand: int = Field(default=1, sa_column=Column(
        "from_hand", Integer, primary_key=True, nullable=False, server_default=text("1")))
    to_hand: int = Field(default=1, sa_column=Column(
        "to_hand", Integer, nullable=False, server_default=text("1")))
    player_id: int = Field(foreign_key="player.id", index=True)
    revision: int
    team: str = Field(max_length=1)
    finished: int = 0  # 1 once the game is over: it counts as won or lost (a sum, so 0/1)
    won: int = 0
    hands: int = 0  # hands played out (throw-ins not counted)
    throw_ins_dealt: int = 0
    bids_3: int = 0
    bids_4: int = 0
    bids_5: int = 0
    bids_6: int = 0
    made_3: int = 0
    made_4: int = 0
    made_5: int = 0
    made_6: int = 0
    # What the player's bids at each level did to the team's score, summed: the points
    # taken when made, minus the bid when set.
    change_3: int = 0
    change_4: int = 0
    change_5: int = 0
    change_6: int = 0
    taken_as_bidder: int = 0
    took_high: int = 0
    took_low: int = 0
    took_right: int = 0
    took_left: int = 0
    took_joker: int = 0
    took_game: int = 0


class ClubSummary(SQLModel, table=True):
    """The club's leaderboard sums (``SeatSummary`` added up per player), as a cache.

    ``stamp`` names the state of the club's games it was added up from (``kept.Stamp``):
    how many there are, the newest id, the sum of their revisions and how many are
    abandoned. Every change to a game bumps its revision and a new game adds one, so any
    change gives a new stamp, and the sums are brought up to date before a page reads them.
    """

    __tablename__ = "club_summary"

    club_id: int = Field(foreign_key="club.id", primary_key=True)
    stamp: str = Field(max_length=80)
    players: list[Any] = Field(sa_column=Column(JSON, nullable=False))  # a dict per player


class PlayerPairs(SQLModel, table=True):
    """One player's games at one table with each other player of the club, as partners
    and as opponents (``summaries.one_player_stats``), as a cache: kept with the stamp of
    the club's games the ``ClubSummary`` held when they were added up, and added up again
    once the club's stamp is another. The other players' names are read afresh."""

    __tablename__ = "player_pairs"

    player_id: int = Field(foreign_key="player.id", primary_key=True)
    stamp: str = Field(max_length=80)
    # A list per other player and side: [their id, 1 as partners or 0 as opponents,
    # games played, won, lost].
    pairs: list[Any] = Field(sa_column=Column(JSON, nullable=False))


class Member(SQLModel, table=True):
    """Someone who belongs to a club, with a role: owner, scorer or viewer."""

    id: Optional[int] = Field(default=None, primary_key=True)
    club_id: int = Field(foreign_key="club.id", index=True)
    name: str = Field(max_length=PLAYER_NAME_LENGTH)
    role: str = Field(max_length=8)  # a ``Role``
    created_at: datetime = Field(default_factory=utcnow)
    removed_at: Optional[datetime] = None
    # The link they joined by (revoked when they are removed, so it can't let them back).
    # An invite's id, without a foreign key: an invite names the member who made it, and
    # two tables pointing at each other can't be created or dropped in any order.
    invite_id: Optional[int] = None
    # The player they are at the table, said once on their phone (an owner may change
    # it): their phone's team in a game is that player's (``table.confirming``). A
    # player is at most one member's, so nobody's phone passes for another's.
    player_id: Optional[int] = Field(default=None, sa_column=Column(
        "player_id", Integer, ForeignKey("player.id", name="fk_member_player"), nullable=True))

    __table_args__ = (Index("uq_member_player", "player_id", unique=True),)


class Device(SQLModel, table=True):
    """A phone or browser a member joined from, known by its cookie's token (hashed)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", index=True)
    token_hash: str = Field(max_length=64, unique=True)
    label: str = Field(default="", max_length=DEVICE_LABEL_LENGTH)  # what the browser said
    created_at: datetime = Field(default_factory=utcnow)
    last_seen_at: Optional[datetime] = None
    forgotten_at: Optional[datetime] = None


class Invite(SQLModel, table=True):
    """A link (and a short code) that lets people join a club with a role until revoked."""

    id: Optional[int] = Field(default=None, primary_key=True)
    club_id: int = Field(foreign_key="club.id", index=True)
    role: str = Field(max_length=8)  # a ``Role``: scorer or viewer, or owner (works once); or ``SCREEN``
    token: str = Field(max_length=64, unique=True)  # in the link: 192 random bits
    code: str = Field(max_length=16, unique=True)  # typed at the table: 40 random bits
    game_id: Optional[int] = Field(default=None, foreign_key="game.id")  # opened on joining
    created_by: Optional[int] = Field(default=None, foreign_key="member.id")
    created_at: datetime = Field(default_factory=utcnow)
    revoked_at: Optional[datetime] = None
    expires_at: Optional[datetime] = None  # a game's share links last an evening


class JoinAttempt(SQLModel, table=True):
    """A code typed on the join page, kept a while to slow down guessing."""

    __tablename__ = "join_attempt"

    id: Optional[int] = Field(default=None, primary_key=True)
    client: str = Field(max_length=64, index=True)  # the address it came from
    at: datetime = Field(default_factory=utcnow, index=True)


class GameChange(SQLModel, table=True):
    """One change to a game, kept for good: who made it, when, and what it did."""

    __tablename__ = "game_change"

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    at: datetime = Field(default_factory=utcnow)
    kind: str = Field(max_length=10)  # a ``ChangeKind``
    number: int  # the hand changed (0: a change to the whole game, as seats or a name)
    member_id: Optional[int] = Field(default=None, foreign_key="member.id")
    device_id: Optional[int] = Field(default=None, foreign_key="device.id")
    # Who, as they were called then ("Ann, Chrome on Android"); "" from a command line.
    who: str = Field(default="", max_length=WHO_LENGTH)
    # The hand's own score change per team (None: thrown in, or not live), before/after.
    hand_before: Optional[dict[str, int]] = Field(default=None, sa_column=Column(JSON))
    hand_after: Optional[dict[str, int]] = Field(default=None, sa_column=Column(JSON))
    # The game's totals before and after the change.
    totals_before: dict[str, int] = Field(sa_column=Column(JSON, nullable=False))
    totals_after: dict[str, int] = Field(sa_column=Column(JSON, nullable=False))
    # What was changed, for the sentence that tells it: e.g. {"points": {"joker": ["B",
    # "C"]}}, {"seats": [2, 5], "players": ["Ben", "Emil"]}, {"from": "Bem", "to": "Ben"}.
    details: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))


class LiveDraft(SQLModel, table=True):
    """The hand a scorer is entering now, as their page's form holds it, for watchers.

    Only a view of work in progress: nothing is recorded until Record, and a draft for
    another hand number or game revision than the game's own is never shown.
    """

    __tablename__ = "live_draft"

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    seq: int = 0  # bumped at each change, so a watching phone can tell it moved
    # The phone entering it: that phone gets its own entry back (after opening the rules,
    # say), and is never told that "another phone" is entering it.
    device_id: Optional[int] = Field(default=None, foreign_key="device.id")
    # That phone's number for the step (rising with each, 0: none sent): two quick taps
    # reach the server at once, and the earlier one finishing last must not stand.
    step: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    args: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow)


KEPT_KEY_LENGTH = 64


class KeptAnswer(SQLModel, table=True):
    """A poll's answer after a change, rendered once for every app server: the first
    server to render it keeps it here, under the same key its own memory keeps it under
    (``page_cache``), and the others read it instead of rendering it again.

    Only a copy of a render, for a few minutes after the change: never backed up, and
    losing it (or the whole table) loses nothing but time.
    """

    __tablename__ = "kept_answer"

    key: str = Field(primary_key=True, max_length=KEPT_KEY_LENGTH)  # the key's digest
    game_id: int = Field(index=True)
    revision: int
    body: str = Field(sa_column=Column(Text, nullable=False))  # the CSRF token's marker in it
    headers: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    kept_at: datetime = Field(default_factory=utcnow, index=True)


class RatedGame(SQLModel, table=True):
    """Where one game stands in its club's ratings (``scorekeeper.figures.ratings``): a cache.

    Tagged with the game's revision when it was looked at, like ``SeatSummary``: a game
    whose row carries another revision (or has none) is looked at again before any rating
    is read. ``finished_at`` is the game's moment in the order rated: when the hand that
    ended it was recorded, kept within its evening's night (``ratings.rated_moment``: a
    game typed in from paper stands on its evening's date); the games are rated in that
    order (ties by id). None: the game is no match (still in play, or abandoned).
    """

    __tablename__ = "rated_game"
    __table_args__ = (Index("ix_rated_game_order", "club_id", "finished_at", "game_id"),)

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    club_id: int = Field(foreign_key="club.id")
    revision: int
    finished_at: Optional[datetime] = None


class PlayerRating(SQLModel, table=True):
    """A player's rating just after one rated game, with their team's place in it: a
    cache, worked out again from that game onward whenever an earlier game changes.

    A player's rows count their games 1, 2, 3, … in the order rated, so ``games`` is
    their order too: the rating a game started from is the player's row with one game
    fewer (none: the player was new), found through ``ix_player_rating_order``."""

    __tablename__ = "player_rating"
    __table_args__ = (Index("ix_player_rating_order", "player_id", "games"),)

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True)
    team: int  # the team's place in the game's order of teams (A = 0)
    rank: int  # 1 for the winner; equal final scores share a rank
    # The share of the game's hands the player played (``Replay.team_shares``): 1 for a
    # player who sat all game, less for a substitute and the player they took over from.
    share: float = Field(default=1.0, sa_column=Column(
        "share", Float, nullable=False, server_default=text("1")))
    mu: float
    sigma: float
    games: int  # the player's rated games up to and including this one


class ClubRatings(SQLModel, table=True):
    """Every player's latest rating in one row, with the stamp of the club's games they
    were rated from (``kept.Stamp``, marked when games were still to be rated): a cache
    read when the stamp still holds."""

    __tablename__ = "club_ratings"

    club_id: int = Field(foreign_key="club.id", primary_key=True)
    stamp: str = Field(max_length=80)
    # A list per player: [id, mu, sigma, games, the last rated game's id, when it ended].
    players: list[Any] = Field(sa_column=Column(JSON, nullable=False))
