"""corrections: evenings closed on purpose, abandoned games, what a change changed, restored clubs

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 17:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


# revision identifiers, used by Alembic.
revision: str = '0011'
down_revision: Union[str, Sequence[str], None] = '0010'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('evening', schema=None) as batch_op:
        batch_op.add_column(sa.Column('closed_at', sqlmodel.sql.sqltypes.UTCDateTime(),
                                      nullable=True))
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('abandoned_at', sqlmodel.sql.sqltypes.UTCDateTime(),
                                      nullable=True))
    with op.batch_alter_table('game_change', schema=None) as batch_op:
        batch_op.add_column(sa.Column('details', sa.JSON(), nullable=True))
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.add_column(sa.Column('restored_at', sqlmodel.sql.sqltypes.UTCDateTime(),
                                      nullable=True))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.drop_column('restored_at')
    with op.batch_alter_table('game_change', schema=None) as batch_op:
        batch_op.drop_column('details')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('abandoned_at')
    with op.batch_alter_table('evening', schema=None) as batch_op:
        batch_op.drop_column('closed_at')
