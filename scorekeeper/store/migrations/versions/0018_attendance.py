"""attendance: who is coming to a planned evening, one answer per member

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-11 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


# revision identifiers, used by Alembic.
revision: str = '0018'
down_revision: Union[str, Sequence[str], None] = '0017'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema: nobody has answered yet."""
    op.create_table(
        'attendance',
        sa.Column('evening_id', sa.Integer(), nullable=False),
        sa.Column('member_id', sa.Integer(), nullable=False),
        sa.Column('coming', sa.Boolean(), nullable=False),
        sa.Column('said_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['evening_id'], ['evening.id'], ),
        sa.ForeignKeyConstraint(['member_id'], ['member.id'], ),
        sa.PrimaryKeyConstraint('evening_id', 'member_id'),
    )


def downgrade() -> None:
    """Downgrade schema: the answers are dropped; the evenings stay."""
    op.drop_table('attendance')
