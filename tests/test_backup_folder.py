"""Every club's backup into a folder, the newest few kept (``backup-all``, what a server's
nightly timer runs): each written whole or not at all, a failed run loud and removing
nothing, each club read in one snapshot and each file checked as a restore reads it, and
a kept file restoring its club."""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlmodel import Session

from scorekeeper.clubs.membership import new_invite
from scorekeeper.files import backup as backup_module, nightly
from scorekeeper.rules import HouseRules
from scorekeeper.store.models import Club, Role
from scorekeeper.table.seating import start_game
from tests.members import client_as, member_cookie, new_club
from tests.new_games import start_game_as
from tests.test_backup import CONTENTS, build_history, fresh_app

KEEP = 3


@pytest.fixture
def two_clubs():
    """An app with two clubs of games: the first club's history of the backup tests, and
    a second club's one game."""
    app = fresh_app()
    build_history(client_as(app))
    second = new_club(app, "Second table")
    start_game_as(client_as(app, club_id=second), names="Gus Hal Ida Jo Kim Lu".split())
    return app, second


def backup_all(app, folder, *more):
    return app.test_cli_runner().invoke(args=["backup-all", str(folder), *more])


def files_of(folder) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_runs_keep_the_newest_backups_of_each_club_and_a_kept_one_restores(
        two_clubs, tmp_path):
    app, second = two_clubs
    folder = tmp_path / "backups"
    names, new = [], []
    for run in range(KEEP + 2):
        result = backup_all(app, folder, "--keep", str(KEEP))
        assert result.exit_code == 0, result.output
        said = result.stdout.splitlines()
        assert len(said) == 2 and said[0].startswith(f"Backed up {CONTENTS} to {folder}/club-1-")
        names.append(sorted(path.name for path in folder.iterdir()))
        new.append(set(names[-1]) - set(names[-2] if run else ()))
    first_club = [name for name in names[-1] if name.startswith("club-1-")]
    second_club = [name for name in names[-1] if name.startswith(f"club-{second}-")]
    assert len(first_club) == KEEP and len(second_club) == KEEP
    assert names[-1] == sorted(first_club + second_club)  # nothing else: no parts left
    assert all(len(written) == 2 for written in new)  # one more of each club each run
    assert set(names[-1]) == set().union(*new[-KEEP:])  # the newest: the last runs' own
    kept = folder / first_club[-1]
    assert json.loads(kept.read_text(encoding="utf-8"))["club"]["name"] == "Our table"

    restored = fresh_app().test_cli_runner().invoke(args=["restore", str(kept)])
    assert restored.exit_code == 0, restored.output
    assert restored.stdout.splitlines()[0] == f"Restored {CONTENTS} from {kept}."


def test_a_full_disk_fails_loudly_and_leaves_the_kept_backups_whole(
        two_clubs, tmp_path, monkeypatch):
    app, _second = two_clubs
    folder = tmp_path / "backups"
    assert backup_all(app, folder, "--keep", "1").exit_code == 0
    before = files_of(folder)
    real_fsync, calls = os.fsync, []

    def full(descriptor):
        calls.append(descriptor)
        if len(calls) == 2:  # the second club's: the disk is full by then
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_fsync(descriptor)

    monkeypatch.setattr(nightly.os, "fsync", full)
    result = backup_all(app, folder, "--keep", "1")
    assert result.exit_code == 1
    assert "none was removed" in result.output and "No space left on device" in result.output
    after = files_of(folder)
    assert {name: after[name] for name in before} == before  # every kept one, whole
    assert not [name for name in after if not nightly.NAME.match(name)]  # no part left


def test_a_read_only_folder_fails_loudly_and_changes_nothing(two_clubs, tmp_path,
                                                              monkeypatch):
    app, _second = two_clubs
    folder = tmp_path / "backups"
    assert backup_all(app, folder).exit_code == 0
    before = files_of(folder)

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(nightly.tempfile, "mkstemp", read_only)
    result = backup_all(app, folder)
    assert result.exit_code == 1 and "Read-only file system" in result.output
    assert files_of(folder) == before


def test_a_folder_that_is_a_file_is_refused_with_a_message(two_clubs, tmp_path):
    app, _second = two_clubs
    not_a_folder = tmp_path / "backups"
    not_a_folder.write_text("a file")
    result = backup_all(app, not_a_folder)
    assert result.exit_code != 0 and "backups" in result.output
    assert "Traceback" not in result.output
    assert not_a_folder.read_text() == "a file"


@pytest.mark.parametrize("database", ["closed port", "missing folder"])
@pytest.mark.parametrize("command", ["backup-all", "backup"])
def test_with_the_database_down_a_backup_says_so_in_one_sentence(
        two_clubs, tmp_path, database, command):
    app, _second = two_clubs
    folder = tmp_path / "backups"
    assert backup_all(app, folder).exit_code == 0
    before = files_of(folder)
    # The server went down after the app started: its next query finds nobody there.
    app.extensions["db_engine"] = create_engine(
        "postgresql+psycopg://scorekeeper@127.0.0.1:9/scorekeeper" if database == "closed port"
        else f"sqlite:///{tmp_path / 'gone' / 'scorekeeper.sqlite'}")
    target = folder if command == "backup-all" else folder / "one.json"
    result = app.test_cli_runner().invoke(args=[command, str(target)])
    assert result.exit_code == 1
    (said,) = result.stderr.splitlines()
    assert said.startswith("Error: the backups were not all written, and none was removed: "
                           "the database did not answer (" if command == "backup-all" else
                           "Error: nothing was backed up: the database did not answer (")
    assert said.endswith(")") and result.stdout == ""
    assert files_of(folder) == before


def test_with_the_database_down_at_start_the_nightly_backup_says_so_in_one_sentence(tmp_path):
    """As the timer runs it: a process of its own, the app made before any command, and
    the database not there at all (before, 139 lines of traceback)."""
    folder = tmp_path / "backups"
    ran = subprocess.run(
        [str(Path(sys.prefix) / "bin" / "flask"), "--app", "scorekeeper", "backup-all",
         str(folder)], capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "SECRET_KEY": "down",
             "DATABASE_URL": "postgresql+psycopg://scorekeeper@127.0.0.1:9/scorekeeper"})
    assert ran.returncode == 1
    (said,) = ran.stderr.splitlines()
    assert said.startswith("Error: The database did not answer ("), said
    assert "the app does not start without it" in said and ran.stdout == ""
    assert not folder.exists()


def test_a_game_and_its_link_made_while_a_club_is_read_leave_its_backup_whole(
        tmp_path, monkeypatch):
    """The interleaving a review found: a game and its share link made after the club's
    games were read and before its links were. The backup is the club as it was when
    its reading began, and the folder restores (the link named a game not in the file)."""
    app = fresh_app()
    club_id = new_club(app, "Thursday table")
    member_cookie(app, "owner", "Olga", club_id)
    read_seasons, made = backup_module._season_entries, []

    def meanwhile(session, club):  # read after the games, before the links
        if not made:
            with Session(app.extensions["db_engine"]) as other:
                game = start_game(other, other.get(Club, club_id),
                                  "Una Vic Wim Xia Yan Zoe".split(), HouseRules(), 1)
                made.append(new_invite(other, other.get(Club, club_id), Role.VIEWER,
                                       game=game).id)
        return read_seasons(session, club)

    monkeypatch.setattr(backup_module, "_season_entries", meanwhile)
    folder = tmp_path / "backups"
    assert backup_all(app, folder).exit_code == 0
    (kept,) = folder.iterdir()
    document = json.loads(kept.read_text(encoding="utf-8"))
    assert made and document["games"] == [] and document["invites"] == []
    restored = fresh_app().test_cli_runner().invoke(args=["restore-all", str(folder)])
    assert restored.exit_code == 0, restored.output

    # The next night's backup holds them both.
    assert backup_all(app, folder).exit_code == 0
    newest = json.loads(nightly.newest_backups(folder)[club_id].read_text(encoding="utf-8"))
    assert [len(newest["games"]), [i["id"] for i in newest["invites"]]] == [1, made]


def test_a_backup_a_restore_would_refuse_fails_the_night_and_is_not_kept(
        two_clubs, tmp_path, monkeypatch):
    app, second = two_clubs
    folder = tmp_path / "backups"
    assert backup_all(app, folder).exit_code == 0
    before = files_of(folder)
    read_club = nightly.club_backup

    def spoiled(session, club, members):
        backup = read_club(session, club, members=members)
        if club.id == second:
            backup["invites"] = [{"id": 1, "role": "viewer", "token": "t" * 32,
                                  "code": "ABCDEFGH", "game_id": 99,
                                  "created_at": "2025-03-01T20:15:00+00:00"}]
        return backup

    monkeypatch.setattr(nightly, "club_backup", spoiled)
    result = backup_all(app, folder)
    assert result.exit_code == 1
    (said,) = result.stderr.splitlines()
    assert said.startswith("Error: the backups were not all written, and none was removed: "
                           f"{folder}/club-{second}-")
    assert said.endswith(".json: invites[0].game_id: there is no game 99 in the file")
    after = files_of(folder)
    assert {name: after[name] for name in before} == before  # every kept one, whole
    # The bad one never under a backup's name, where restore-all would take it.
    assert [name for name in after if name not in before] == \
        [name for name in after if name.startswith("club-1-") and name not in before]
    assert all(nightly.NAME.match(name) for name in after)
