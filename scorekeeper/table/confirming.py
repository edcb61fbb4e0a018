"""Nights played for a ranking: each hand waits for a member of another team to confirm it.

An evening asks for it (``Evening.confirm_hands``), from its start where the club asks
for it by default (``Club.confirm_hands``), or once a scorer turns it on. A member is
linked once to the player they are at the table (``Member.player_id``: said on their
own phone, changed by an owner only; a player is at most one member's), so a phone's
team in a game is its member's player's at the hand concerned: partners changing
between games change nothing. Every hand written while its evening asks (recorded,
corrected, put in) keeps the writer's team and waits until a member seated in another
team confirms it with one tap, from any phone of theirs, a viewer's too. A throw-in
waits for nobody: nothing was scored. A hand written by a member not seated (or not
linked) waits for any seated member's phone, but not the one that wrote it.

A confirmation moves no score: a hand waiting is in the scores like any other, so the
table plays on, and is shown as waiting; a game won with hands still waiting is not
counted in the night's games won until they are confirmed (``table.evenings.tally``).
Confirming, like every change, is kept in the game's log with who did it, and is made
with the game's revision checked, so two phones confirming at once confirm it once.
"""
from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from scorekeeper.rules import team_of
from scorekeeper.store.models import ChangeKind, Club, Evening, Game, GameChange, Hand, Member
from scorekeeper.store.replay import Replay
from scorekeeper.store.sittings import sitting_at


class AlreadyConfirmed(Exception):
    """The hand was confirmed already (a second tap, or another phone first)."""

    def __init__(self, number: int, team: str) -> None:
        super().__init__(f"hand {number} was confirmed by team {team}")
        self.number = number
        self.team = team


class CannotConfirm(Exception):
    """This phone may not confirm the hand: ``why`` says which rule stops it."""

    # The reasons, as the page words them.
    NOT_WAITING = "not waiting"  # no such hand waits (undone, corrected away, never asked)
    NO_TEAM = "no team"  # the member has no player yet, or that player is not seated
    OWN_TEAM = "own team"  # the phone's team wrote the hand

    def __init__(self, number: int, why: str) -> None:
        super().__init__(f"hand {number}: {why}")
        self.number = number
        self.why = why


def evening_confirms(session: Session, game: Game) -> bool:
    """Whether the game's evening asks for each hand to be confirmed."""
    if game.evening_id is None:
        return False
    evening = session.get(Evening, game.evening_id)
    return evening is not None and evening.confirm_hands


def phone_team(replay: Replay, player_id: int | None, number: int) -> str | None:
    """The team the member's player sat in at hand ``number`` of the game (None: the
    member has no player yet, or their player did not sit then)."""
    if player_id is None:
        return None
    sittings = replay.sittings()
    for seat in replay.rules.seat_numbers:
        if sitting_at(sittings, seat, number).player_id == player_id:
            return team_of(seat, replay.rules.teams)
    return None


def mark_written(hand: Hand, confirming: bool, team: str | None) -> None:
    """A hand just written (recorded, corrected, put in): waiting for another team's
    member if its evening asks (``team``: the writer's) and it was played (a throw-in
    scored nothing), else confirmed by nobody."""
    hand.to_confirm = confirming and not hand.thrown_in
    hand.recorded_team = team if hand.to_confirm else None
    hand.confirmed_team = None


def waiting(replay: Replay) -> tuple[Hand, ...]:
    """The game's live hands that wait for confirmation, in order."""
    return tuple(hand for hand in replay.hands if hand.awaits_confirmation)


def may_confirm(hand: Hand, team: str | None, device_id: int | None,
                recorded_by: int | None) -> str | None:
    """Why a phone of ``team`` may not confirm ``hand`` (a ``CannotConfirm`` reason), or
    None if it may (``recorded_by``: the device that last wrote the hand)."""
    if not hand.awaits_confirmation:
        return CannotConfirm.NOT_WAITING
    if team is None:
        return CannotConfirm.NO_TEAM
    if team == hand.recorded_team or (hand.recorded_team is None
                                      and device_id is not None and device_id == recorded_by):
        return CannotConfirm.OWN_TEAM
    return None


# The changes that write a hand's numbers: the phone that made the last one wrote it.
WRITTEN = (ChangeKind.RECORDED, ChangeKind.EDITED, ChangeKind.INSERTED)


def written_by(session: Session, game_id: int, number: int) -> int | None:
    """The device that last wrote hand ``number`` of the game, from its log."""
    return session.exec(
        select(GameChange.device_id)
        .where(GameChange.game_id == game_id, GameChange.number == number,
               GameChange.kind.in_(WRITTEN))  # type: ignore[attr-defined]
        .order_by(GameChange.id.desc())  # type: ignore[union-attr]
    ).first()


class PlayerTaken(Exception):
    """The player is another member's already: only an owner moves a link."""


def link_player(session: Session, member: Member, player_id: int | None,
                moved: bool = False) -> None:
    """Link the member to the player they are at the table (None: to nobody). PlayerTaken
    if another member has that player (the database's own check decides a race), unless
    it is ``moved`` from them (an owner putting a wrong link right)."""
    if moved and player_id is not None:
        session.execute(update(Member).where(Member.player_id == player_id)  # type: ignore[arg-type]
                        .values(player_id=None))
    member.player_id = player_id
    session.add(member)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise PlayerTaken() from None


def confirm_by_default(session: Session, club: Club, on: bool) -> bool:
    """Whether the club's new evenings start asking for confirmation (False: so already)."""
    if club.confirm_hands == on:
        return False
    club.confirm_hands = on
    session.add(club)
    session.commit()
    return True


def ask_confirmation(session: Session, evening: Evening, on: bool) -> bool:
    """Turn the evening's confirmation on or off (False: it was so already). Its games'
    revisions move on, so every phone on them shows what the evening now asks."""
    if evening.confirm_hands == on:
        return False
    evening.confirm_hands = on
    session.add(evening)
    session.execute(update(Game).where(Game.evening_id == evening.id)  # type: ignore[arg-type]
                    .values(revision=Game.revision + 1))
    session.commit()
    return True
