"""entry keys: the entry that recorded a hand, and the phone entering the live draft

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 11:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


# revision identifiers, used by Alembic.
revision: str = '0010'
down_revision: Union[str, Sequence[str], None] = '0009'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('entry_key', sqlmodel.sql.sqltypes.AutoString(length=40),
                                      nullable=True))
        batch_op.create_index('uq_hand_game_entry', ['game_id', 'entry_key'], unique=True)

    with op.batch_alter_table('live_draft', schema=None) as batch_op:
        batch_op.add_column(sa.Column('device_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_live_draft_device_id_device', 'device', ['device_id'],
                                    ['id'])


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('live_draft', schema=None) as batch_op:
        batch_op.drop_constraint('fk_live_draft_device_id_device', type_='foreignkey')
        batch_op.drop_column('device_id')

    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_index('uq_hand_game_entry')
        batch_op.drop_column('entry_key')
