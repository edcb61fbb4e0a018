"""no first club: the empty club 0008 made goes while nobody has used it

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06 06:00:00.000000

0008 made an empty club for a fresh install's first visitor to claim, from anywhere: on
a server reachable from elsewhere, whoever found it first. The first club is now made,
not claimed: in a browser on the server's own machine, or by `create-club`. So that
club goes, but only while it is exactly as 0008 made it: its name, never restored, and
no row of any table names it (no member, link, player, evening, season, game, figures).
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0022'
down_revision: Union[str, Sequence[str], None] = '0021'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

FIRST_CLUB = "Our table"  # as 0008 named it


def upgrade() -> None:
    bind = op.get_bind()
    first = bind.execute(sa.text(
        "SELECT id, name, restored_at FROM club ORDER BY id LIMIT 1")).first()
    if first is None or first.name != FIRST_CLUB or first.restored_at is not None:
        return
    if any(bind.execute(sa.text(f"SELECT 1 FROM {table} WHERE club_id = :club LIMIT 1"),
                        {"club": first.id}).first() for table in _tables_naming_a_club()):
        return
    bind.execute(sa.text("DELETE FROM club WHERE id = :club"), {"club": first.id})
    no_club_left = bind.execute(sa.text("SELECT count(*) FROM club")).scalar() == 0
    if bind.dialect.name == "postgresql" and no_club_left:
        # The club made next is club 1 again, as on SQLite (the commands' examples name it).
        bind.execute(sa.text("SELECT setval(pg_get_serial_sequence('club', 'id'), 1, false)"))


def _tables_naming_a_club() -> list[str]:
    inspector = sa.inspect(op.get_bind())
    return [table for table in inspector.get_table_names()
            if any(column["name"] == "club_id" for column in inspector.get_columns(table))]


def downgrade() -> None:
    """The club is not made again: the code before 0022 makes a first club itself when
    a visitor makes one on a server with none."""
