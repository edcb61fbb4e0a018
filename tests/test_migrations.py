"""The Alembic migrations build exactly the schema the models describe."""
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
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


def test_workers_starting_together_on_a_new_database_all_start_with_one_club(tmp_path):
    """Each worker migrates on start: the others wait for the first, then find it done."""
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
        assert [club.name for club in session.exec(select(Club))] == ["Our table"]
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
