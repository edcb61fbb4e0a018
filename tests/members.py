"""Members for tests: a device cookie of an owner, scorer or viewer of a club."""
from __future__ import annotations

from sqlmodel import Session


def member_cookie(app, role: str = "owner", name: str | None = None, club_id: int | None = None
                  ) -> str:
    """The device cookie of a new member of the club (the first club by default)."""
    from sqlmodel import select

    from scorekeeper.access import new_device
    from scorekeeper.models import Club, Member

    with app.test_request_context(), Session(app.extensions["db_engine"]) as session:
        club_id = club_id or session.exec(select(Club.id).order_by(Club.id)).first()
        member = Member(club_id=club_id, name=name or role.title(), role=role)
        session.add(member)
        session.flush()
        cookie = new_device(session, member, "Test browser")
        session.commit()
        return cookie


def client_as(app, role: str = "owner", **kwargs):
    """A test client whose device belongs to a member of that role."""
    from scorekeeper.access import COOKIE

    client = app.test_client()
    client.set_cookie(COOKIE, member_cookie(app, role, **kwargs))
    return client
