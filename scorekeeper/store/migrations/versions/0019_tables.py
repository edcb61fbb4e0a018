"""tables: which of an evening's tables plays each game

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-12 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0019'
down_revision: Union[str, Sequence[str], None] = '0018'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema: every game so far was played at table 1."""
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('table_number', sa.Integer(), nullable=False,
                                      server_default=sa.text('1')))


def downgrade() -> None:
    """Downgrade schema: the table numbers are dropped; the games stay."""
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('table_number')
