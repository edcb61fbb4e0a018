"""ratings: each player's rating after each rated game, and the club's latest ratings

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 20:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


# revision identifiers, used by Alembic.
revision: str = '0013'
down_revision: Union[str, Sequence[str], None] = '0012'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        'rated_game',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('club_id', sa.Integer(), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('finished_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(['club_id'], ['club.id'], ),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.PrimaryKeyConstraint('game_id'),
    )
    with op.batch_alter_table('rated_game', schema=None) as batch_op:
        batch_op.create_index('ix_rated_game_order', ['club_id', 'finished_at', 'game_id'],
                              unique=False)
    op.create_table(
        'player_rating',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('team', sa.Integer(), nullable=False),
        sa.Column('rank', sa.Integer(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], ),
        sa.PrimaryKeyConstraint('game_id', 'player_id'),
    )
    with op.batch_alter_table('player_rating', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_rating_player_id'), ['player_id'],
                              unique=False)
    op.create_table(
        'club_ratings',
        sa.Column('club_id', sa.Integer(), nullable=False),
        sa.Column('stamp', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('players', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['club_id'], ['club.id'], ),
        sa.PrimaryKeyConstraint('club_id'),
    )
    # Left empty: the first page to show a rating rates every game once.


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('club_ratings')
    with op.batch_alter_table('player_rating', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_rating_player_id'))
    op.drop_table('player_rating')
    with op.batch_alter_table('rated_game', schema=None) as batch_op:
        batch_op.drop_index('ix_rated_game_order')
    op.drop_table('rated_game')
