"""bidding figures: what each player's bids at each level did to the team's score

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04 18:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0017'
down_revision: Union[str, Sequence[str], None] = '0016'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

LEVELS = (3, 4, 5, 6)


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('seat_summary', schema=None) as batch_op:
        for level in LEVELS:
            batch_op.add_column(sa.Column(f'change_{level}', sa.Integer(),
                                          server_default=sa.text('0'), nullable=False))
    # The statistics kept so far know nothing of the new figure: they are a cache, so
    # they go, and every game is counted again from its hands, a batch per page (or at
    # once by catch-up), as after an import.
    op.execute('DELETE FROM seat_summary')
    op.execute('DELETE FROM club_summary')


def downgrade() -> None:
    """Downgrade schema: the rows kept stay right without the new figure."""
    with op.batch_alter_table('seat_summary', schema=None) as batch_op:
        for level in reversed(LEVELS):
            batch_op.drop_column(f'change_{level}')
