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
from scorekeeper.store.models import Club, Device, Member, Player, utcnow
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


def test_a_poll_is_never_let_in_without_a_fresh_look_of_the_watch_nor_after_minutes(
        held_app, start_game, play, monkeypatch):  # noqa: F811
    """With no poll of the club held in this process (so no watch's look at its access
    revision), or with the look too old, every poll reads its device; and once its
    device was read ``KNOWN_SECONDS`` ago, whatever the revision: a change made around
    the app (by hand in the database) is obeyed then."""
    from scorekeeper.clubs import access
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
    with Session(engine) as session:  # removed around the app: no revision raised
        session.execute(update(Member).where(Member.name == "Vic")
                        .values(removed_at=utcnow()))
        session.commit()
    assert phone.get(at_once, headers=HX).status_code == 204  # its minutes not up yet
    monkeypatch.setattr(access, "KNOWN_SECONDS", 0.0)
    assert phone.get(at_once, headers=HX).status_code == 404
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")  # the holding poll woken
    holding.join()


def test_what_says_nothing_of_who_may_read_a_club_leaves_its_access_revision(
        app, start_game, play):
    """A hand, a club's setting, a device or member added: the polls let in stay let in.
    (Each change that does raise it: above.)"""
    engine = app.extensions["db_engine"]
    club_id = first_club_id(app)
    game = start_game()
    before = access_revision(engine, club_id)
    play(game, 1, CID_BIDS_4, "hearts", "ABBCC", "A")
    with Session(engine) as session:
        session.get(Club, club_id).prefers_sixes = True
        session.commit()
    client_as(app, "viewer", name="Newcomer")
    assert access_revision(engine, club_id) == before


def test_a_link_moved_from_another_member_raises_the_revision_once_and_moves_it(app):
    """An owner moving a wrong link: the member it leaves and the one it goes to change
    in one transaction, each through the ORM, the club's row taken first."""
    engine = app.extensions["db_engine"]
    club_id = first_club_id(app)
    for name in ("Bob", "Carol"):
        client_as(app, "viewer", name=name)
    with Session(engine) as session:
        player = Player(club_id=club_id, name="Pat", name_key="pat")
        session.add(player)
        session.commit()
        bob, carol = (session.exec(select(Member).where(Member.name == name)).one()
                      for name in ("Bob", "Carol"))
        link_player(session, bob, player.id)
        before = access_revision(engine, club_id)
        link_player(session, carol, player.id, moved=True)
        session.refresh(bob)
        assert (bob.player_id, carol.player_id) == (None, player.id)
    assert access_revision(engine, club_id) == before + 1


def test_members_and_devices_change_through_the_orm_where_the_revision_is_raised():
    """The access revision is raised as the ORM flushes a member or device changed
    (``_raise_access``): a statement that changes them around the ORM would slip by it
    (until ``KNOWN_SECONDS``). The one there is: a device's "last seen", which changes
    nothing of who may read."""
    import re
    from pathlib import Path

    import scorekeeper

    around = re.compile(r"\b(update|delete|insert)\(\s*(Member|Device)\b"
                        r"|\b(Member|Device)\.__table__|\bquery\(\s*(Member|Device)\b"
                        r"|\b(update|delete\s+from|insert\s+into)\s+\"?(member|device)\b",
                        re.IGNORECASE)
    found = sorted((path.name, match.group(0))
                   for path in Path(scorekeeper.__file__).parent.rglob("*.py")
                   if "migrations" not in path.parts
                   for match in around.finditer(path.read_text()))
    assert found == [("access.py", "update(Device")]
