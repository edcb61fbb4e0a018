"""Who is coming to a planned evening: each member says in or out, the organiser sees
how many tables of six that makes, and the evening's next round seats who is in.

An evening is planned by giving it a date of today or later before any game; it is the
same ``Evening`` its games then go into. Each member has one answer, the latest.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from scorekeeper.figures.rounds import TABLE
from scorekeeper.store.models import Attendance, Club, Evening, Game, Member, utcnow
from scorekeeper.table.evenings import new_evening


@dataclass(frozen=True)
class Answers:
    """The club's members by their answer: names, in the order they answered (those
    yet to answer by name)."""

    coming: list[str]
    not_coming: list[str]
    not_said: list[str]

    @property
    def tables(self) -> int:
        return len(self.coming) // TABLE

    @property
    def sitting_out(self) -> int:
        return len(self.coming) % TABLE

    @property
    def wanted(self) -> int:
        """How many more make the first table (0 once there is one)."""
        return max(0, TABLE - len(self.coming))


def is_planned(evening: Evening, today: date) -> bool:
    """Whether members can still say if they are coming: dated today or later, open."""
    return evening.played_on >= today and evening.closed_at is None


def plan_evening(session: Session, club: Club, played_on: date, place: str = "",
                 note: str = "") -> Evening:
    """The evening planned: a new one, or the one already planned for that day and place
    with no game yet (a double tap, or two organisers at once, plan one evening)."""
    evening = new_evening(club, played_on, place, note)
    session.add(evening)
    session.commit()
    first = session.exec(
        select(Evening).where(Evening.club_id == club.id, Evening.played_on == played_on,
                              Evening.place == evening.place, Evening.id < evening.id,
                              ~Evening.id.in_(select(Game.evening_id).where(
                                  Game.evening_id.is_not(None))))
        .order_by(Evening.id)).first()
    if first is None:
        return evening
    session.delete(evening)
    session.commit()
    return first


def say_coming(session: Session, evening: Evening, member_id: int, coming: bool) -> None:
    """Keep the member's answer, replacing an earlier one (two taps at once keep one)."""
    for _attempt in range(2):
        answer = session.get(Attendance, (evening.id, member_id))
        if answer is None:
            session.add(Attendance(evening_id=evening.id, member_id=member_id, coming=coming))
        elif answer.coming != coming:  # the same answer again keeps its place in the queue
            answer.coming, answer.said_at = coming, utcnow()
        try:
            session.commit()
            return
        except IntegrityError:  # the other tap's answer came first: change that one
            session.rollback()
    raise RuntimeError("an answer neither added nor found")  # pragma: no cover


def answers(session: Session, evening: Evening) -> Answers:
    """Every member of the evening's club (but those removed) by their answer."""
    members = session.exec(
        select(Member, Attendance)
        .join(Attendance, (Attendance.member_id == Member.id)
              & (Attendance.evening_id == evening.id), isouter=True)
        .where(Member.club_id == evening.club_id, Member.removed_at.is_(None))
    ).all()
    said = sorted((row for row in members if row[1] is not None), key=lambda row: row[1].said_at)
    return Answers(
        coming=[member.name for member, answer in said if answer.coming],
        not_coming=[member.name for member, answer in said if not answer.coming],
        not_said=sorted((member.name for member, answer in members if answer is None),
                        key=str.casefold),
    )
