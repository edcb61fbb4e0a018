"""gone for the night: a scorer's word that a player went home, or came back

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-20 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0023'
down_revision: Union[str, Sequence[str], None] = '0022'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema: nobody has been said to be gone yet."""
    op.create_table(
        'gone_tonight',
        sa.Column('evening_id', sa.Integer(), nullable=False),
        sa.Column('name_key', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('gone', sa.Boolean(), nullable=False),
        sa.Column('said_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['evening_id'], ['evening.id'], ),
        sa.PrimaryKeyConstraint('evening_id', 'name_key'),
    )


def downgrade() -> None:
    """Downgrade schema: the words are dropped; the evenings stay."""
    op.drop_table('gone_tonight')
