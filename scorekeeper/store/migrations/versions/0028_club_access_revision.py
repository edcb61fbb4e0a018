"""club access revision: a club's number raised by every change to who may read it

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-08 00:40:00.000000

"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op


revision: str = '0028'
down_revision: Union[str, Sequence[str], None] = '0027'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema: each club's access revision, from 0. A phone's poll is let in
    without a read of its device while the club's revision, as its watch last read it,
    is the one the device was read under."""
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.add_column(sa.Column('access_revision', sa.Integer(), nullable=False,
                                      server_default=sa.text('0')))


def downgrade() -> None:
    """Downgrade schema: no access revision."""
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.drop_column('access_revision')
