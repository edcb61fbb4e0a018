"""A released migration is never changed, moved or removed: a database that ran it is
stamped with its revision, and is never upgraded through it again. Each release keeps
the SHA-256 of every migration file it shipped (``tests/released/<version>/
migrations.sha256``); a migration added since is unreleased, and free to change until
the next release lists it.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from alembic.script import ScriptDirectory

from scorekeeper.store.migrate import MIGRATIONS

RELEASED = Path(__file__).resolve().parent / "released"
VERSIONS = MIGRATIONS / "versions"


def shipped() -> dict[str, dict[str, str]]:
    """Each release's migration files and their SHA-256: version -> file -> digest."""
    releases = {}
    for manifest in sorted(RELEASED.glob("*/migrations.sha256")):
        releases[manifest.parent.name] = {
            name: digest for digest, name in
            (line.split() for line in manifest.read_text().splitlines() if line.strip())}
    return releases


def test_every_release_lists_its_migrations():
    releases = shipped()
    assert "0.1.0" in releases
    assert all(files for files in releases.values())


def test_no_released_migration_file_is_changed_or_removed():
    for version, files in shipped().items():
        for name, digest in files.items():
            path = VERSIONS / name
            assert path.exists(), (
                f"migration {name} was released in {version} and is gone: a database "
                "stamped at or past it could no longer be upgraded; bring it back as it was")
            assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, (
                f"migration {name} was released in {version} and has changed since: "
                "databases that ran it will never run it again, so they would miss the "
                "change; put it back as it was and make the change a new migration")


def test_every_released_migration_lies_below_the_one_head():
    script = ScriptDirectory(str(MIGRATIONS))
    (head,) = script.get_heads()
    below_head = {revision.revision for revision in script.iterate_revisions(head, "base")}
    for version, files in shipped().items():
        for name in files:
            revision = name.split("_", 1)[0]
            assert revision in below_head, (
                f"migration {name}, released in {version}, is not on the way to today's "
                f"head {head}: a new migration must follow the newest released one, not "
                "branch from an older one")
