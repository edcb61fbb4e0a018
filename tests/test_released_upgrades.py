"""A database a released version made, with the club it played (owner, scorer and viewer
devices, an evening at two tables, a game won, one in play with corrections and an
undone hand, a hand waiting for confirmation, a season), upgrades when today's app
starts on it, and every page its members see answers.

The fixtures were made by each release's own code (tests/released/make_fixture.py), not
by today's migrations: a migration rewritten after its release shows here. SQLite
always; the PostgreSQL dump when the tests run on a PostgreSQL server (CI's second run).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.store.migrate import newest, revisions_of
from tests.databases import on_postgresql, restored_database_url

RELEASED = Path(__file__).resolve().parent / "released"
RELEASES = sorted(facts.parent.name for facts in RELEASED.glob("*/club.json"))


def released_database(version: str, tmp_path: Path) -> tuple[str, dict]:
    """A copy of the release's database, on the test database's kind: its URL and facts."""
    folder = RELEASED / version
    facts = json.loads((folder / "club.json").read_text())
    if on_postgresql():
        return restored_database_url(folder / "club.postgresql.sql"), facts["postgresql"]
    copy = tmp_path / "released.sqlite"
    shutil.copyfile(folder / "club.sqlite", copy)
    return f"sqlite:///{copy}", facts["sqlite"]


def pages(app, facts: dict, role: str) -> list[str]:
    """Every page a member of the released club opens in that role."""
    evening, (won, in_play, second_table) = facts["evening"], facts["games"]
    with app.extensions["db_engine"].connect() as connection:
        ann, bob = connection.execute(text(
            "SELECT id FROM player WHERE name IN ('Ann', 'Bob') ORDER BY name")).scalars()
        season = connection.execute(text("SELECT min(id) FROM season")).scalar_one()
    scorers = [f"/games/{in_play}/fix", f"/club/share/{won}"] if role != "viewer" else []
    return scorers + [
        "/", "/club", "/rules", "/join", "/evenings", f"/evenings/{evening}",
        f"/evenings/{evening}/board", f"/evenings/{evening}/board?table=2",
        f"/evenings/{evening}/recap", *(f"/games/{game}" for game in (won, in_play, second_table)),
        f"/games/{won}/board",
        "/players", f"/players/{ann}", f"/players/{ann}/versus/{bob}", "/players.csv",
        "/seasons", f"/seasons/{season}",
    ]


@pytest.mark.parametrize("version", RELEASES)
def test_a_released_database_upgrades_and_every_members_page_answers(version, tmp_path):
    url, facts = released_database(version, tmp_path)
    app = create_app({"TESTING": True, "DATABASE_URL": url,
                      "SECRET_KEY": facts["secret_key"]})
    assert revisions_of(app.extensions["db_engine"]) == newest()
    for role, cookie in facts["cookies"].items():
        phone = app.test_client()
        phone.set_cookie(facts["cookie"], cookie)
        for page in pages(app, facts, role):
            response = phone.get(page)
            assert response.status_code == 200, (role, page, response.text[:500])
    with app.extensions["db_engine"].connect() as connection:
        kept = connection.execute(text(
            "SELECT count(*), count(undone_at), sum(CASE WHEN to_confirm THEN 1 ELSE 0 END) "
            "FROM hand")).one()
    assert tuple(kept) == (5, 1, 1)  # every hand kept: one undone, one waiting
    app.extensions["db_engine"].dispose()


def test_every_release_keeps_both_fixtures_and_the_key_its_cookies_are_signed_with():
    assert "0.1.0" in RELEASES
    for version in RELEASES:
        folder = RELEASED / version
        facts = json.loads((folder / "club.json").read_text())
        assert (folder / "club.sqlite").stat().st_size < 400_000
        assert (folder / "club.postgresql.sql").stat().st_size < 400_000
        for kind in ("sqlite", "postgresql"):
            assert set(facts[kind]["cookies"]) == {"owner", "scorer", "viewer"}
