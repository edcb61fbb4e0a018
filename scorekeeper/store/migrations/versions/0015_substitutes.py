"""substitutes: a seat's players from a hand on, their stretches in the statistics, and
each rated player's share of a game's hands

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0015'
down_revision: Union[str, Sequence[str], None] = '0014'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _primary_key(table: str, columns: list[str], new: list[sa.Column]) -> None:
    """Add ``new`` columns to ``table`` and make ``columns`` its primary key: SQLite's
    table copied afresh (it can't change a key in place), PostgreSQL's key swapped."""
    if op.get_bind().dialect.name == 'sqlite':
        with op.batch_alter_table(table, schema=None, recreate='always') as batch_op:
            for column in new:
                column.primary_key = column.name in columns
                batch_op.add_column(column)
            batch_op.create_primary_key(f'{table}_pkey', columns)
        return
    for column in new:
        op.add_column(table, column)
    op.drop_constraint(f'{table}_pkey', table, type_='primary')
    op.create_primary_key(f'{table}_pkey', table, columns)


def upgrade() -> None:
    """Upgrade schema."""
    _primary_key('gameseat', ['game_id', 'seat', 'from_hand'], [
        sa.Column('from_hand', sa.Integer(), server_default=sa.text('1'), nullable=False)])
    _primary_key('seat_summary', ['game_id', 'seat', 'from_hand'], [
        sa.Column('from_hand', sa.Integer(), server_default=sa.text('1'), nullable=False),
        sa.Column('to_hand', sa.Integer(), server_default=sa.text('1'), nullable=False)])
    # Every player so far sat all game: from hand 1 to the game's last live hand (its
    # first, in a game not begun). The kept sums stay right, so nothing is recounted.
    op.execute(
        "UPDATE seat_summary SET to_hand = (SELECT COUNT(*) FROM hand "
        "WHERE hand.game_id = seat_summary.game_id AND hand.undone_at IS NULL) "
        "WHERE EXISTS (SELECT 1 FROM hand WHERE hand.game_id = seat_summary.game_id "
        "AND hand.undone_at IS NULL)")
    with op.batch_alter_table('player_rating', schema=None) as batch_op:
        batch_op.add_column(sa.Column('share', sa.Float(), server_default=sa.text('1'),
                                      nullable=False))


def downgrade() -> None:
    """Downgrade schema: substitutes' sittings are dropped (their seats' players before
    them play on), and the statistics kept of their games are counted again."""
    with op.batch_alter_table('player_rating', schema=None) as batch_op:
        batch_op.drop_column('share')
    # What was kept of those games (caches, all of it) is worked out again from the hands.
    substituted = 'SELECT game_id FROM gameseat WHERE from_hand > 1'
    for table in ('seat_summary', 'player_rating', 'rated_game'):
        op.execute(f'DELETE FROM {table} WHERE game_id IN ({substituted})')
    op.execute('DELETE FROM club_summary')
    op.execute('DELETE FROM club_ratings')
    op.execute('DELETE FROM gameseat WHERE from_hand > 1')
    for table, dropped in (('seat_summary', ['from_hand', 'to_hand']),
                           ('gameseat', ['from_hand'])):
        if op.get_bind().dialect.name == 'sqlite':
            with op.batch_alter_table(table, schema=None, recreate='always') as batch_op:
                batch_op.create_primary_key(f'{table}_pkey', ['game_id', 'seat'])
                for column in dropped:
                    batch_op.drop_column(column)
        else:
            op.drop_constraint(f'{table}_pkey', table, type_='primary')
            for column in dropped:
                op.drop_column(table, column)
            op.create_primary_key(f'{table}_pkey', table, ['game_id', 'seat'])
