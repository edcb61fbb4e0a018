"""kept answers: a poll's answer after a change, rendered once for every app server

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 20:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


# revision identifiers, used by Alembic.
revision: str = '0012'
down_revision: Union[str, Sequence[str], None] = '0011'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        'kept_answer',
        sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('headers', sa.JSON(), nullable=False),
        sa.Column('kept_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('key'),
    )
    with op.batch_alter_table('kept_answer', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_kept_answer_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_kept_answer_kept_at'), ['kept_at'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('kept_answer', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_kept_answer_kept_at'))
        batch_op.drop_index(batch_op.f('ix_kept_answer_game_id'))
    op.drop_table('kept_answer')
