"""A phone's poll is let in as its device was read before (``clubs.access.KNOWN``), with no
read of its own, only while the watch of its process found the club's access revision
unchanged a moment ago; every change to who may read the club, or as what, raises it in
the change's own transaction, made on this server or any other."""
from __future__ import annotations

import threading

import pytest
from sqlalchemy import update
from sqlmodel import Session, select

from scorekeeper.clubs.membership import forget_device, remove_member, set_role
from scorekeeper.store.models import Club, Device, Member, Player
from scorekeeper.table.confirming import link_player
from tests.databases import statements_sent
from tests.members import client_as, first_club_id
from tests.patience import until
from tests.views.test_view_live import CID_BIDS_4, HX, poll_url
from tests.views.test_view_live_wait import LONG_HOLD, held_app  # noqa: F401 (a fixture)


def _forget(session, member):
    (device,) = session.exec(select(Device).where(Device.member_id == member.id)).all()
    forget_device(session, device)


def _link(session, member):
    player = session.exec(select(Player).where(Player.club_id == member.club_id)
                          .order_by(Player.id)).first()
    link_player(session, member, player.id)


# Each change to a member or device a poll must obey: made as the app makes it, in a
# session of its own (as another server would), and whether the poll is refused after.
CHANGES = {
    "device forgotten": (_forget, 404),
    "member removed": (remove_member, 404),
    # (A scorer's poll is answered with the hand's entry the viewer's page lacked.)
    "role changed": (lambda session, member: set_role(session, member, "scorer"), 200),
    "player linked": (_link, 204),
}


def access_revision(engine, club_id: int) -> int:
    with Session(engine) as session:
        return session.get(Club, club_id).access_revision


def reads_a_device(statements) -> bool:
    return any("device.token_hash" in statement for statement, _ in statements)


@pytest.mark.parametrize("change", CHANGES)
def test_a_poll_let_in_as_read_before_obeys_each_change_once_the_watch_found_it(
        held_app, start_game, play, monkeypatch, change):  # noqa: F811
    from scorekeeper.table import waiting

    made, answer = CHANGES[change]
    engine = held_app.extensions["db_engine"]
    held_app.config["LIVE_WAIT_SECONDS"] = LONG_HOLD
    game, club_id = start_game(), first_club_id(held_app)
    holder, phone = (client_as(held_app, "viewer", name=name) for name in ("Vera", "Vic"))
    urls = [poll_url(each.get(f"/games/{game}").text) for each in (holder, phone)]
    at_once = urls[1].replace("&wait=1", "")  # answered at once, not held
    watch = held_app.extensions["live_watch"]
    monkeypatch.setattr(waiting, "FRESH", 60.0)  # a moment, however slow the machine
    holding = threading.Thread(target=lambda: holder.get(urls[0], headers=HX))
    holding.start()
    until(lambda: watch.access(club_id) is not None)
    before = access_revision(engine, club_id)
    here = threading.get_ident()
    with statements_sent(engine, thread=here) as statements:
        assert phone.get(at_once, headers=HX).status_code == 204
    assert statements == []  # let in as read when its page was drawn

    with Session(engine) as session:
        made(session, session.exec(select(Member).where(Member.name == "Vic")).one())
    assert access_revision(engine, club_id) == before + 1
    until(lambda: watch.access(club_id) == before + 1)
    with statements_sent(engine, thread=here) as statements:
        assert phone.get(at_once, headers=HX).status_code == answer
    assert reads_a_device(statements)  # not let in as before: read again

    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")  # the holding poll woken
    holding.join()


def test_a_poll_is_never_let_in_without_a_fresh_look_of_the_watch(
        held_app, start_game, monkeypatch):  # noqa: F811
    """With no poll of the club held in this process (so no watch's look at its access
    revision), or with the look too old, every poll reads its device."""
    from scorekeeper.table import waiting

    game = start_game()
    phone = client_as(held_app, "viewer", name="Vic")
    at_once = poll_url(phone.get(f"/games/{game}").text).replace("&wait=1", "")
    engine = held_app.extensions["db_engine"]
    for _ in range(2):
        with statements_sent(engine, thread=threading.get_ident()) as statements:
            assert phone.get(at_once, headers=HX).status_code == 204
        assert reads_a_device(statements)
    held_app.config["LIVE_WAIT_SECONDS"] = LONG_HOLD
    holding = threading.Thread(target=lambda: phone.get(at_once + "&wait=1", headers=HX))
    holding.start()
    watch = held_app.extensions["live_watch"]
    club_id = first_club_id(held_app)
    until(lambda: watch.access(club_id) is not None)
    monkeypatch.setattr(waiting, "FRESH", 0.0)  # the look is too old at once
    with statements_sent(engine, thread=threading.get_ident()) as statements:
        assert phone.get(at_once, headers=HX).status_code == 204
    assert reads_a_device(statements)
    monkeypatch.setattr(waiting, "FRESH", 60.0)
    with statements_sent(engine, thread=threading.get_ident()) as statements:
        assert phone.get(at_once, headers=HX).status_code == 204
    assert statements == []
    with Session(engine) as session:  # the holding poll woken: its device is forgotten
        _forget(session, session.exec(select(Member).where(Member.name == "Vic")).one())
    holding.join()


def test_what_says_nothing_of_who_may_read_a_club_leaves_its_access_revision(
        app, start_game, play):
    """A hand, a device's "last seen" written, a device or member added: the polls let in
    stay let in. (Each change that does raise it: above.)"""
    engine = app.extensions["db_engine"]
    club_id = first_club_id(app)
    game = start_game()
    phone = client_as(app, "scorer", name="Sam")
    before = access_revision(engine, club_id)
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")
    with Session(engine) as session:  # a "last seen" long ago: written at the next request
        session.execute(update(Device).values(last_seen_at=None))
        session.commit()
    assert phone.get(f"/games/{game}").status_code == 200
    with Session(engine) as session:
        assert session.exec(select(Device.last_seen_at).join(Member).where(
            Member.name == "Sam")).one() is not None
    client_as(app, "viewer", name="Newcomer")
    assert access_revision(engine, club_id) == before


def test_members_and_devices_change_through_the_orm_where_the_revision_is_raised():
    """The access revision is raised as the ORM flushes a member or device changed
    (``_raise_access``): a statement that changes them around the ORM would slip by it.
    The two there are: a device's "last seen" (no change to who may read), and a link
    moved from another member, made beside the ORM's change to the member it moves to."""
    import re
    from pathlib import Path

    import scorekeeper

    around = re.compile(r"\b(update|delete|insert)\((Member|Device)\)")
    found = sorted((path.name, match.group(0))
                   for path in Path(scorekeeper.__file__).parent.rglob("*.py")
                   if "migrations" not in path.parts
                   for match in around.finditer(path.read_text()))
    assert found == [("access.py", "update(Device)"), ("confirming.py", "update(Member)")]
