"""Members for tests: a device cookie of an owner, scorer or viewer of a club."""
from __future__ import annotations

from sqlmodel import Session, select

from scorekeeper.clubs.access import COOKIE
from scorekeeper.clubs.membership import add_member
from scorekeeper.store.models import Club


def new_club(app, name: str = "Club") -> int:
    """A club of its own, with no member, player or game yet; its id."""
    with Session(app.extensions["db_engine"]) as session:
        club = Club(name=name)
        session.add(club)
        session.commit()
        return club.id


def member_cookie(app, role: str = "owner", name: str | None = None, club_id: int | None = None
                  ) -> str:
    """The device cookie of a new member of the club (the first club by default)."""
    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club_id = club_id or session.exec(select(Club.id).order_by(Club.id)).first()
        _member, cookie = add_member(session, club_id, name or role.title(), role,
                                     "Test browser")
        return cookie


def client_as(app, role: str = "owner", **kwargs):
    """A test client whose device belongs to a member of that role."""
    client = app.test_client()
    client.set_cookie(COOKIE, member_cookie(app, role, **kwargs))
    return client
