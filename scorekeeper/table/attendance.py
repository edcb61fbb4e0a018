"""Who is coming to a planned evening: each member says in or out, the organiser sees
the tables of four to six that makes (as the club prefers them: ``figures.rounds``), and
the evening's next round seats who is in; and who, of those, is gone for the night.

An evening is planned by giving it a date of today or later before any game; it is the
same ``Evening`` its games then go into. Each member has one answer, the latest.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Callable, Sequence

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, select

from scorekeeper.figures.rounds import SMALLEST_TABLE, table_sizes
from scorekeeper.store.models import (
    Attendance, Club, Evening, Game, GoneTonight, Member, aware, utcnow,
)
from scorekeeper.store.replay import Replay
from scorekeeper.table.evenings import (
    LastGame, already_played, last_games, new_evening, played_tonight,
)
from scorekeeper.text.names import name_key


@dataclass(frozen=True)
class Answers:
    """The club's members by their answer: names, in the order they answered (those
    yet to answer by name); and whether the club prefers tables of six."""

    coming: list[str]
    not_coming: list[str]
    not_said: list[str]
    sixes: bool = False

    @property
    def tables(self) -> tuple[int, ...]:
        """How many sit at each table, largest first, if all who are in come."""
        return table_sizes(len(self.coming), self.sixes)

    @property
    def sitting_out(self) -> int:
        return len(self.coming) - sum(self.tables)

    @property
    def wanted(self) -> int:
        """How many more make the first table (0 once there is one)."""
        return max(0, SMALLEST_TABLE - len(self.coming))


def prefer_sixes(session: Session, club: Club, sixes: bool) -> None:
    """Keep whether the club's next rounds seat as many tables of six as fit (else the
    fewest tables, as even as can be: ``figures.rounds.table_sizes``)."""
    club.prefers_sixes = sixes
    session.add(club)
    session.commit()


def is_planned(evening: Evening, today: date) -> bool:
    """Whether members can still say if they are coming: dated today or later, open."""
    return evening.played_on >= today and evening.closed_at is None


def next_planned(session: Session, club_id: int, today: date) -> Evening | None:
    """The club's evening members can say they come to that comes first: tonight's, or
    the next one planned (``is_planned``)."""
    return session.exec(
        select(Evening).where(Evening.club_id == club_id, Evening.played_on >= today,
                              Evening.closed_at.is_(None))  # type: ignore[union-attr]
        .order_by(Evening.played_on, Evening.id).limit(1)  # type: ignore[arg-type]
    ).first()


def plan_evening(session: Session, club: Club, played_on: date, place: str = "",
                 note: str = "") -> Evening:
    """The evening planned (or, dated before today, an evening ``already_played`` added):
    a new one, or the one of that kind already made for that day and place with no game
    yet (a double tap, or two organisers at once, make one evening)."""
    evening = new_evening(club, played_on, place, note)
    session.add(evening)
    session.commit()
    first = next((other for other in session.exec(
        select(Evening).where(Evening.club_id == club.id, Evening.played_on == played_on,
                              Evening.place == evening.place, Evening.id < evening.id,
                              ~Evening.id.in_(select(Game.evening_id).where(
                                  Game.evening_id.is_not(None))))
        .order_by(Evening.id)) if already_played(other) == already_played(evening)), None)
    if first is None:
        return evening
    session.delete(evening)
    session.commit()
    return first


def _keep_latest(session: Session, model: type[SQLModel], key: tuple, word: dict,
                 changed: Callable[[SQLModel], bool]) -> None:
    """Keep ``word`` as the one row of ``model`` at ``key``, replacing an earlier one
    where ``changed`` says it differs (two taps at once keep one)."""
    for _attempt in range(2):
        row = session.get(model, key)
        if row is None:
            session.add(model(**word))
        elif changed(row):
            for field, value in word.items():
                setattr(row, field, value)
            row.said_at = utcnow()
        try:
            session.commit()
            return
        except IntegrityError:  # the other tap's row came first: change that one
            session.rollback()
    raise RuntimeError("a word neither added nor found")  # pragma: no cover


def say_coming(session: Session, evening: Evening, member_id: int, coming: bool) -> None:
    """Keep the member's answer, replacing an earlier one (two taps at once keep one);
    the same answer again keeps its place in the queue."""
    _keep_latest(session, Attendance, (evening.id, member_id),
                 {"evening_id": evening.id, "member_id": member_id, "coming": coming},
                 lambda answer: answer.coming != coming)


def say_gone(session: Session, evening: Evening, name: str, gone: bool) -> None:
    """Keep a scorer's word that the player went home for the night (or is back)."""
    key = name_key(name)
    _keep_latest(session, GoneTonight, (evening.id, key),
                 {"evening_id": evening.id, "name_key": key, "gone": gone},
                 lambda _word: True)  # said again: the latest time counts


@dataclass(frozen=True)
class Whereabouts:
    """Everyone present tonight: here (the next round seats them), or gone for the
    night; each in the order they came."""

    here: list[str]
    gone: list[str]


def is_gone(word: GoneTonight | None, last: LastGame | None) -> bool:
    """The latest word on a player: a scorer's, if said since the last game they sat in
    began; else that game's (a substitute took their seat: gone). A game begun since the
    scorer's word seated them: here, whatever was said before."""
    if word is not None and (last is None or aware(word.said_at) >= last.started):
        return word.gone
    return last is not None and last.replaced


def whereabouts(session: Session, evening: Evening, present: Sequence[str],
                last: dict[str, LastGame]) -> Whereabouts:
    """``present`` (each once) split into here and gone for the night (``is_gone``);
    ``last``: ``table.evenings.last_games`` of the evening."""
    words = {word.name_key: word for word in session.exec(
        select(GoneTonight).where(GoneTonight.evening_id == evening.id))}
    gone = {name for name in present
            if is_gone(words.get(name_key(name)), last.get(name_key(name)))}
    return Whereabouts([name for name in present if name not in gone],
                       [name for name in present if name in gone])


def here_tonight(session: Session, evening: Evening, replays: Sequence[Replay],
                 coming: Sequence[str]) -> Whereabouts:
    """Everyone present at ``evening`` (who said they are in, ``coming``, and everyone
    who has played tonight, each once), here or gone for the night."""
    present: dict[str, str] = {}
    for name in [*coming, *played_tonight(replays)]:
        present.setdefault(name_key(name), name)
    return whereabouts(session, evening, list(present.values()), last_games(replays))


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
        sixes=session.get(Club, evening.club_id).prefers_sixes,
    )
