"""The first records: players, games and their seats."""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("format", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("lang", sa.String(4), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("started", sa.String(32), nullable=False),
        sa.Column("ended", sa.String(32), nullable=False),
        sa.Column("host", sa.String(80), nullable=False),
        sa.Column("winner", sa.String(20), nullable=True),
        sa.Column("script", sa.Text, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("side", sa.String(20), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("survived", sa.Boolean, nullable=False),
        sa.Column("fouls", sa.Integer, nullable=False),
        sa.Column("out_phase", sa.String(20), nullable=True),
        sa.Column("out_by", sa.String(20), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("seats")
    op.drop_table("games")
    op.drop_table("players")
