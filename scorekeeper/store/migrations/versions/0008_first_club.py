"""first club: a new database starts with one club, made once whatever starts it

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30 16:05:00.000000

Made here, not by each worker as it starts: migrations run one process at a time, so two
workers starting together can't make two first clubs.
"""
from datetime import datetime, timezone
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0008'
down_revision: Union[str, Sequence[str], None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

FIRST_CLUB = "Our table"  # renamed by whoever makes the club on the welcome page


def upgrade() -> None:
    bind = op.get_bind()
    if bind.execute(sa.text("SELECT count(*) FROM club")).scalar() == 0:
        club = sa.table("club", sa.column("name", sa.String),
                        sa.column("created_at", sqlmodel.sql.sqltypes.UTCDateTime()))
        op.bulk_insert(club, [{"name": FIRST_CLUB, "created_at": datetime.now(timezone.utc)}])


def downgrade() -> None:
    """The club stays: it may hold games by now."""
