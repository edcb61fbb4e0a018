"""member players: the player each member is at the table, and confirmation by default

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-27 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0024'
down_revision: Union[str, Sequence[str], None] = '0023'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema: no member is linked to a player yet; no club confirms by default."""
    with op.batch_alter_table('member', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player_id', sa.Integer(),
                                      sa.ForeignKey('player.id', name='fk_member_player'),
                                      nullable=True))
    # A player is at most one member's: nobody's phone passes for another's.
    op.create_index('uq_member_player', 'member', ['player_id'], unique=True)
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.add_column(sa.Column('confirm_hands', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    """Downgrade schema: the links and the club's default are dropped; members stay."""
    with op.batch_alter_table('club', schema=None) as batch_op:
        batch_op.drop_column('confirm_hands')
    op.drop_index('uq_member_player', table_name='member')
    with op.batch_alter_table('member', schema=None) as batch_op:
        batch_op.drop_column('player_id')
