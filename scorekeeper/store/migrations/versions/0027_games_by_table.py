"""games by table: a game's evening's games indexed by table, and by game within it

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-07 21:00:00.000000

"""
from typing import Sequence, Union

from alembic import op


revision: str = '0027'
down_revision: Union[str, Sequence[str], None] = '0026'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema: the games' index by evening gives way to one by evening, table and
    game. It finds an evening's games as well, and the newer game at a game's table at
    once, where the one by evening alone went through every game of the evening, and
    the database's own choice, by game number, through every game begun since."""
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.create_index('ix_game_table', ['evening_id', 'table_number', 'id'],
                              unique=False)
        batch_op.drop_index('ix_game_evening_id')


def downgrade() -> None:
    """Downgrade schema: the games indexed by evening alone, as before."""
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.create_index('ix_game_evening_id', ['evening_id'], unique=False)
        batch_op.drop_index('ix_game_table')
