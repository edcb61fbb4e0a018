"""faster figures: a player's kept ratings indexed by their games, a club's games' stamp
indexed, and each player's partners and opponents kept

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-13 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


# revision identifiers, used by Alembic.
revision: str = '0020'
down_revision: Union[str, Sequence[str], None] = '0019'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema: the kept ratings' index by player alone gives way to one by player
    and games (it finds a player's rows as well); the kept rows already count each
    player's games in the order rated, so nothing is worked out again. The games get an
    index their stamp is added up from. Each player's partners and opponents are kept
    from the first visit to their page on."""
    with op.batch_alter_table('player_rating', schema=None) as batch_op:
        batch_op.create_index('ix_player_rating_order', ['player_id', 'games'], unique=False)
        batch_op.drop_index('ix_player_rating_player_id')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.create_index('ix_game_stamp', ['club_id', 'revision', 'abandoned_at'],
                              unique=False)
    op.create_table(
        'player_pairs',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('stamp', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('pairs', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], ),
        sa.PrimaryKeyConstraint('player_id'),
    )


def downgrade() -> None:
    """Downgrade schema: the indexes as before, and no partners kept."""
    op.drop_table('player_pairs')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_stamp')
    with op.batch_alter_table('player_rating', schema=None) as batch_op:
        batch_op.create_index('ix_player_rating_player_id', ['player_id'], unique=False)
        batch_op.drop_index('ix_player_rating_order')
