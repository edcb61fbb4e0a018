"""house rules document: a game keeps its house rules in one document, not a column each

Revision ID: 0025
Revises: 0024
Create Date: 2027-01-03 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0025'
down_revision: Union[str, Sequence[str], None] = '0024'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_GAME = sa.table('game', sa.column('id', sa.Integer), sa.column('bidder_goes_out', sa.Boolean),
                 sa.column('house_rules', sa.JSON))


def upgrade() -> None:
    """Upgrade schema: each game's "bidder goes out" moves into its house rules."""
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('house_rules', sa.JSON(), nullable=False,
                                      server_default=sa.text("'{}'")))
    for flag in (True, False):
        op.execute(_GAME.update().where(_GAME.c.bidder_goes_out == flag)
                   .values(house_rules={"bidder_goes_out": flag}))
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('bidder_goes_out')


def downgrade() -> None:
    """Downgrade schema: "bidder goes out" back in its own column; other rules dropped."""
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bidder_goes_out', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    connection = op.get_bind()
    for game_id, rules in connection.execute(sa.select(_GAME.c.id, _GAME.c.house_rules)).all():
        if (rules or {}).get("bidder_goes_out") is True:
            connection.execute(_GAME.update().where(_GAME.c.id == game_id)
                               .values(bidder_goes_out=True))
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('house_rules')
