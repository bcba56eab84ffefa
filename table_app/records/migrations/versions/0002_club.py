"""A club and a table for every game (a league collects several), and whether a game has
reached the league's database."""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("club", sa.String(80), nullable=False, server_default=""))
        batch.add_column(sa.Column("table_name", sa.String(80), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("synced", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_index("games_ended", "games", ["ended"])


def downgrade() -> None:
    op.drop_index("games_ended", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("synced")
        batch.drop_column("table_name")
        batch.drop_column("club")
