"""draft steps: the number of the step a hand in progress was last noted from

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02 09:30:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0014'
down_revision: Union[str, Sequence[str], None] = '0013'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('live_draft', schema=None) as batch_op:
        batch_op.add_column(sa.Column('step', sa.BigInteger(), server_default='0',
                                      nullable=False))


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('live_draft', schema=None) as batch_op:
        batch_op.drop_column('step')
