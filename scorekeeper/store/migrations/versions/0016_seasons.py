"""seasons: named stretches of a club's evenings, each with the rule of its ladder

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-10 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


# revision identifiers, used by Alembic.
revision: str = '0016'
down_revision: Union[str, Sequence[str], None] = '0015'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema: no season yet, so every club's games are one lifetime as before."""
    op.create_table(
        'season',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('club_id', sa.Integer(), nullable=False),
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('starts_on', sa.Date(), nullable=False),
        sa.Column('ends_on', sa.Date(), nullable=False),
        sa.Column('ranked_by', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column('min_evenings', sa.Integer(), nullable=False),
        sa.Column('drop_worst', sa.Integer(), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['club_id'], ['club.id'], ),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('season', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_club_id'), ['club_id'], unique=False)


def downgrade() -> None:
    """Downgrade schema: the seasons are dropped; the games and their figures stay."""
    with op.batch_alter_table('season', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_club_id'))
    op.drop_table('season')
