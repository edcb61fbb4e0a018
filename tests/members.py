"""Members for tests: a device cookie of an owner, scorer or viewer of a club."""
from __future__ import annotations

from sqlmodel import Session, select

from scorekeeper.clubs.access import COOKIE
from scorekeeper.clubs.membership import add_member
from scorekeeper.store.models import Club


FIRST_CLUB_NAME = "Our table"


def first_club(session: Session) -> Club:
    """The server's first club; made as ``create-club`` makes it (no member yet) when the
    server has none, as a fresh database has none."""
    club = session.exec(select(Club).order_by(Club.id)).first()
    if club is None:
        club = Club(name=FIRST_CLUB_NAME)
        session.add(club)
        session.commit()
        session.refresh(club)
    return club


def new_club(app, name: str = "Club") -> int:
    """A club of its own, with no member, player or game yet; its id."""
    with Session(app.extensions["db_engine"]) as session:
        club = Club(name=name)
        session.add(club)
        session.commit()
        return club.id


def first_club_id(app) -> int:
    """The id of the server's ``first_club``."""
    with Session(app.extensions["db_engine"]) as session:
        return first_club(session).id


def member_cookie(app, role: str = "owner", name: str | None = None, club_id: int | None = None
                  ) -> str:
    """The device cookie of a new member of the club (the first club by default)."""
    club_id = club_id or first_club_id(app)
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        _member, cookie = add_member(session, club_id, name or role.title(), role,
                                     "Test browser")
        return cookie


def client_as(app, role: str = "owner", **kwargs):
    """A test client whose device belongs to a member of that role."""
    client = app.test_client()
    client.set_cookie(COOKIE, member_cookie(app, role, **kwargs))
    return client
