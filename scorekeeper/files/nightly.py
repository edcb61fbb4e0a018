"""Every club's backup written into one folder, the last few of each club kept: what a
server's nightly timer runs (``flask --app scorekeeper backup-all FOLDER``).

Each backup is written whole or not at all: into a hidden file of the same folder,
flushed to the disk, then renamed to its name (a rename within a folder is atomic), so a
full disk, a crash or a power cut never leaves a half-written backup under a backup's
name. Only when every club's new backup is written are the oldest removed, down to
``keep`` for each club: a run that fails removes nothing, and says why.

These are the server's backups: each holds its club's members, their devices and live
links too (backup.py says why that is safe), so that ``restore-all`` brings a whole
server back from the folder, the newest of each club, every phone still signed in.
"""
from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sqlmodel import Session, select

from scorekeeper.files.backup import backup_contents, backup_text, club_backup, read_backup
from scorekeeper.files.json_files import FileRefused
from scorekeeper.store.models import Club

NAME = re.compile(r"^club-(\d+)-(\d{8}-\d{6}-\d{6})\.json$")


class BackupFailed(Exception):
    """A backup could not be written (the message says which and why); nothing was removed."""


@dataclass(frozen=True)
class Written:
    club: Club
    path: Path
    contents: str


def backup_name(club_id: int, when: datetime) -> str:
    """``club-<id>-<UTC time to the microsecond>.json``: by name is oldest first."""
    return f"club-{club_id}-{when.astimezone(timezone.utc):%Y%m%d-%H%M%S-%f}.json"


def kept_backups(folder: Path, club_id: int) -> list[Path]:
    """The club's backups in the folder, oldest first."""
    found = [path for path in folder.iterdir()
             if (match := NAME.match(path.name)) and int(match.group(1)) == club_id]
    return sorted(found, key=lambda path: path.name)


def newest_backups(folder: Path) -> dict[int, Path]:
    """The newest backup of each club in the folder, by the club's id."""
    newest: dict[int, Path] = {}
    for path in sorted(folder.iterdir(), key=lambda path: path.name):
        if match := NAME.match(path.name):
            newest[int(match.group(1))] = path  # the names sort oldest first
    return newest


def write_whole(folder: Path, name: str, text: str) -> Path:
    """``text`` as ``folder/name``, there whole or not at all."""
    handle, draft = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".part")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        path = folder / name
        os.replace(draft, path)
    except BaseException:
        Path(draft).unlink(missing_ok=True)
        raise
    return path


def back_up_every_club(session: Session, folder: Path, keep: int,
                       now: datetime | None = None) -> list[Written]:
    """Each club's backup written to ``folder``; then each club's oldest removed, down to
    the ``keep`` newest. BackupFailed, with nothing removed, if any could not be written."""
    now = now or datetime.now(timezone.utc)
    written = []
    # All read first: each club's backup ends the transaction the clubs were read in.
    for club in session.exec(select(Club).order_by(Club.id)).all():
        backup = club_backup(session, club, members=True)
        name = backup_name(club.id, now)
        text = backup_text(backup)
        try:
            # Read as a restore reads it: a file it would refuse fails tonight, loudly,
            # not the restore of the whole server (which refuses it, and every club).
            read_backup(text)
        except FileRefused as refused:
            raise BackupFailed(f"{folder / name}: {refused}") from None
        try:
            path = write_whole(folder, name, text)
        except OSError as error:
            raise BackupFailed(f"{folder / name}: {error.strerror or error}") from error
        written.append(Written(club, path, backup_contents(backup)))
    for club_written in written:
        for old in kept_backups(folder, club_written.club.id)[:-keep]:
            old.unlink()
    return written
