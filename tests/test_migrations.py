"""The Alembic migrations build exactly the schema the models describe."""
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlmodel import SQLModel

from scorekeeper.store.db import make_engine
from scorekeeper.store.migrate import upgrade
import scorekeeper.store.models  # noqa: F401
from tests.members import client_as


def test_migrated_schema_matches_the_models(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'migrated.sqlite'}")
    upgrade(engine)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    assert differences == []


def test_a_new_database_is_made_on_first_start(tmp_path):
    from scorekeeper import create_app

    url = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "t"})
    tables = set(inspect(app.extensions["db_engine"]).get_table_names())
    assert {"club", "player", "game", "gameseat", "hand", "alembic_version"} <= tables
    assert client_as(app).get("/").status_code == 200


def test_secret_key_is_generated_into_the_instance_folder_and_kept(monkeypatch):
    from pathlib import Path

    from scorekeeper import create_app

    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = create_app({"TESTING": True, "DATABASE_URL": "sqlite://"})
    key_file = Path(first.instance_path) / "secret_key"
    assert key_file.read_text().strip() == first.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 32
    second = create_app({"TESTING": True, "DATABASE_URL": "sqlite://"})
    assert second.config["SECRET_KEY"] == first.config["SECRET_KEY"]


def test_database_url_from_the_environment_overrides_the_default(tmp_path, monkeypatch):
    from scorekeeper import create_app

    target = tmp_path / "elsewhere.sqlite"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{target}")
    monkeypatch.setenv("SECRET_KEY", "from-env")
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-env"
    assert client_as(app).get("/").status_code == 200
    assert target.exists()
    assert "hand" in inspect(app.extensions["db_engine"]).get_table_names()


def test_a_game_recorded_on_the_first_schema_survives_every_upgrade(tmp_path):
    from sqlalchemy import text

    from scorekeeper import create_app

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    engine = make_engine(url)
    upgrade(engine, "0001")
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO club (id, name, created_at) "
                                "VALUES (1, 'Old club', '2026-01-01 20:00:00')"))
        for seat, name in enumerate("Ann Bob Cid Dan Eve Fay".split(), start=1):
            connection.execute(text(
                "INSERT INTO player (id, club_id, name, name_key, created_at) "
                "VALUES (:id, 1, :name, :key, '2026-01-01 20:00:00')"),
                {"id": seat, "name": name, "key": name.lower()})
        connection.execute(text(
            "INSERT INTO game (id, club_id, teams, target, bidder_goes_out, first_dealer, "
            "first_dealer_drawn, created_at) VALUES (1, 1, '3x2', 21, 0, 1, 0, "
            "'2026-01-01 20:00:00')"))
        for seat in range(1, 7):
            connection.execute(text("INSERT INTO gameseat (game_id, seat, player_id) "
                                    "VALUES (1, :seat, :seat)"), {"seat": seat})
        # RULES.md's worked example: Bob (B) bids 4 in hearts and is set.
        connection.execute(text(
            "INSERT INTO hand (game_id, number, calls, trump, points, recorded_at) VALUES "
            "(1, 1, '[4, \"pass\", \"pass\", \"pass\", \"pass\", \"pass\"]', 'hearts', "
            "'{\"high\": \"A\", \"low\": \"B\", \"right\": \"B\", \"left\": \"C\", "
            "\"joker\": \"C\", \"game\": \"A\"}', '2026-01-01 20:05:00')"))
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": False})  # upgrades on start
    page = client_as(app).get("/games/1").get_data(as_text=True)
    assert "Team A: 2 points" in page and "Team B: −4 points" in page
    assert "Team C: 2 points" in page and "Hand 2" in page
    with app.extensions["db_engine"].connect() as connection:
        evening = connection.execute(text(
            "SELECT evening.club_id, evening.played_on FROM game "
            "JOIN evening ON evening.id = game.evening_id WHERE game.id = 1")).one()
    assert tuple(evening) == (1, "2026-01-01")  # the game's day became its evening


def test_a_failing_migration_leaves_the_database_as_it_was(tmp_path):
    import pytest
    from sqlalchemy import text

    engine = make_engine(f"sqlite:///{tmp_path / 'half.sqlite'}")
    upgrade(engine, "0001")
    with engine.connect() as connection:
        # A seat whose player is missing: the check after the migrations finds it and
        # the whole upgrade must be taken back, the copied tables included.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.execute(text("INSERT INTO club (id, name, created_at) "
                                "VALUES (1, 'c', '2026-01-01 20:00:00')"))
        connection.execute(text(
            "INSERT INTO game (id, club_id, teams, target, bidder_goes_out, first_dealer, "
            "first_dealer_drawn, created_at) VALUES (1, 1, '3x2', 21, 0, 1, 0, "
            "'2026-01-01 20:00:00')"))
        connection.execute(text("INSERT INTO gameseat (game_id, seat, player_id) "
                                "VALUES (1, 1, 99)"))
        connection.commit()
    with pytest.raises(RuntimeError, match="broke foreign keys"):
        upgrade(engine)
    inspector = inspect(engine)
    assert not [t for t in inspector.get_table_names() if t.startswith("_alembic_tmp")]
    assert "revision" not in {c["name"] for c in inspector.get_columns("game")}
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0001"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_a_start_with_nothing_to_migrate_does_not_judge_old_rows(tmp_path):
    # A stray row the app did not write must not stop it starting when no migration runs.
    from sqlalchemy import text

    engine = make_engine(f"sqlite:///{tmp_path / 'stray.sqlite'}")
    upgrade(engine)
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.execute(text("INSERT INTO gameseat (game_id, seat, player_id) "
                                "VALUES (7, 1, 99)"))
        connection.commit()
    upgrade(engine)  # nothing to do, nothing raised


def newest() -> str:
    from alembic.script import ScriptDirectory

    from scorekeeper.store.migrate import MIGRATIONS

    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


START_ONE = """
import sys
from scorekeeper import create_app
app = create_app({"DATABASE_URL": sys.argv[1], "SECRET_KEY": "t"})
print("started")
"""


def test_workers_starting_together_on_a_new_database_all_start_with_no_club(tmp_path):
    """Each worker migrates on start: the others wait for the first, then find it done.
    No club is made: the first is made in a browser on the server itself, or by
    ``create-club``."""
    import subprocess
    import sys

    from sqlmodel import Session, select

    from scorekeeper.store.models import Club

    url = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    workers = [subprocess.Popen([sys.executable, "-c", START_ONE, url],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for _ in range(4)]
    results = [worker.communicate(timeout=60) for worker in workers]
    assert [worker.returncode for worker in workers] == [0, 0, 0, 0], results
    assert all(out.strip() == "started" for out, _err in results)
    engine = make_engine(url)
    with Session(engine) as session:
        assert session.exec(select(Club)).all() == []
    with engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == newest()


def test_an_app_given_its_database_and_secret_needs_no_instance_folder(tmp_path, monkeypatch):
    """Installed for a club, the app's instance folder is inside the installation, which
    the service's own user can't write: with the database and the secret given, it is
    never made."""
    from flask import Flask

    from scorekeeper import create_app

    monkeypatch.setattr(Flask, "auto_find_instance_path",
                        lambda self: "/proc/scorekeeper-instance")  # can't be made, even by root
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'club' / 'club.sqlite'}",
                      "SECRET_KEY": "given"})
    assert app.test_client().get("/healthz").status_code == 200
    assert (tmp_path / "club" / "club.sqlite").exists()  # its folder made with it


def test_a_database_at_the_newest_revision_runs_no_migration_script(tmp_path, monkeypatch):
    """A start on an up-to-date database only reads its revision; one a revision behind
    is brought up to date."""
    from alembic import command

    from scorekeeper.store import migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'club.sqlite'}")
    upgrade(engine)
    ran = []
    real_upgrade = command.upgrade
    monkeypatch.setattr(command, "upgrade", lambda config, revision: ran.append(revision)
                        or real_upgrade(config, revision))
    upgrade(engine)
    assert ran == []
    command.downgrade(migrate.alembic_config(engine), "-1")
    assert migrate.revisions_of(engine) != migrate.newest()
    upgrade(engine)
    assert ran == ["head"] and migrate.revisions_of(engine) == migrate.newest()


def at_0021(tmp_path):
    """An engine on a database migrated to 0021, holding the empty club 0008 made."""
    from tests.databases import empty_database_url

    engine = make_engine(empty_database_url(tmp_path))
    upgrade(engine, "0021")
    return engine


def club_names(engine) -> list[str]:
    """Read as the database holds them (an older schema than today's models')."""
    with engine.connect() as connection:
        return list(connection.execute(text("SELECT name FROM club ORDER BY id")).scalars())


def test_the_empty_club_0008_made_is_gone_at_0022(tmp_path):
    """Nobody can claim it any more; the club made next is club 1, on either database."""
    from scorekeeper import create_app

    engine = at_0021(tmp_path)
    assert club_names(engine) == ["Our table"]
    upgrade(engine)
    assert club_names(engine) == []
    app = create_app({"TESTING": True, "DATABASE_URL": engine.url.render_as_string(False),
                      "SECRET_KEY": "t"})
    made = app.test_cli_runner().invoke(args=["create-club", "Thursday club"])
    assert "club 1: Thursday club" in made.output, made.output
    app.extensions["db_engine"].dispose()


def test_beside_a_club_made_by_create_club_the_empty_one_goes_too(tmp_path):
    """A server whose operator ran ``create-club`` before 0022 kept the empty club too,
    first in every command: only the operator's club is left."""
    from sqlmodel import Session

    from scorekeeper.clubs.membership import new_invite
    from scorekeeper.store.models import Role

    engine = at_0021(tmp_path)
    with Session(engine, expire_on_commit=False) as session:
        session.execute(text("INSERT INTO club (name, created_at) "
                             "VALUES ('Thursday club', CURRENT_TIMESTAMP)"))
        session.commit()
        new_invite(session, clubs_at_0021(session)[-1], Role.OWNER)
    upgrade(engine)
    assert club_names(engine) == ["Thursday club"]


def clubs_at_0021(session):
    """The clubs, read with only the columns a 0021 database has (today's models have more)."""
    from sqlalchemy.orm import load_only
    from sqlmodel import select

    from scorekeeper.store.models import Club

    return session.exec(select(Club).options(load_only(Club.id, Club.name, Club.restored_at))
                        .order_by(Club.id)).all()


def _member(session, club):
    session.execute(text("INSERT INTO member (club_id, name, role, created_at) "
                         "VALUES (:club, 'Ann', 'owner', CURRENT_TIMESTAMP)"), {"club": club.id})
    session.commit()


def _link(session, club):
    from scorekeeper.clubs.membership import new_invite

    new_invite(session, club, "scorer")


def _player(session, club):
    from scorekeeper.store.rosters import find_or_add_player

    find_or_add_player(session, club, "Ann")
    session.commit()


def _evening(session, club):
    from datetime import date

    from scorekeeper.store.models import Evening

    session.add(Evening(club_id=club.id, played_on=date(2026, 12, 1)))
    session.commit()


def _season(session, club):
    from datetime import date

    from scorekeeper.store.models import Season

    session.add(Season(club_id=club.id, name="Winter", starts_on=date(2026, 12, 1),
                       ends_on=date(2027, 2, 28)))
    session.commit()


def _game(session, club):
    # As 0021's app wrote a game: its house rule in a column of its own.
    session.execute(text(
        "INSERT INTO game (club_id, teams, target, bidder_goes_out, first_dealer, "
        "first_dealer_drawn, created_at, revision, table_number) "
        "VALUES (:club, '3x2', 21, false, 1, false, CURRENT_TIMESTAMP, 1, 1)"), {"club": club.id})
    session.commit()


def _restored(session, club):
    from scorekeeper.store.models import utcnow

    club.restored_at = utcnow()
    session.add(club)
    session.commit()


def _renamed(session, club):
    club.name = "Thursday club"
    session.add(club)
    session.commit()


@pytest.mark.parametrize("use", [_member, _link, _player, _evening, _season, _game,
                                 _restored, _renamed], ids=lambda use: use.__name__[1:])
def test_the_first_club_stays_at_0022_once_anything_was_made_of_it(tmp_path, use):
    from sqlmodel import Session

    engine = at_0021(tmp_path)
    with Session(engine, expire_on_commit=False) as session:  # no reload of today's columns
        (club,) = clubs_at_0021(session)
        use(session, club)
        name = club.name
    upgrade(engine)
    assert club_names(engine) == [name]
