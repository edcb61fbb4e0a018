"""confirmation: an evening whose hands the other side confirms

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-19 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0021'
down_revision: Union[str, Sequence[str], None] = '0020'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema: no evening asks for confirmation so far, and no hand awaits it."""
    with op.batch_alter_table('evening', schema=None) as batch_op:
        batch_op.add_column(sa.Column('confirm_hands', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('to_confirm', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('recorded_team', sa.String(length=1), nullable=True))
        batch_op.add_column(sa.Column('confirmed_team', sa.String(length=1), nullable=True))


def downgrade() -> None:
    """Downgrade schema: the confirmations are dropped; the hands stay."""
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_column('confirmed_team')
        batch_op.drop_column('recorded_team')
        batch_op.drop_column('to_confirm')
    with op.batch_alter_table('evening', schema=None) as batch_op:
        batch_op.drop_column('confirm_hands')
