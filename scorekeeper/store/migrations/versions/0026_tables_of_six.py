"""tables of six: whether a club's next round prefers tables of six

Revision ID: 0026
Revises: 0025
Create Date: 2027-01-10 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0026'
down_revision: Union[str, Sequence[str], None] = '0025'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema: no club prefers sixes yet (the fewest tables, as even as can be)."""
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.add_column(sa.Column('prefers_sixes', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    """Downgrade schema: the club's preference is dropped."""
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.drop_column('prefers_sixes')
