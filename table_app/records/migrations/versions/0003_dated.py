"""How each game's date was known: from the Pi's clock, guessed (a Pi with no clock and no
network starts in 1970), or set by the host."""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("dated", sa.String(8), nullable=False,
                                   server_default="clock"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dated")
