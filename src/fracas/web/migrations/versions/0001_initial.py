"""The first schema: GMs, encounters, player invites, session records.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "gms",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gms_key_hash", "gms", ["key_hash"], unique=True)
    op.create_table(
        "encounters",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("gm_id", sa.Integer, sa.ForeignKey("gms.id"), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("system", sa.String(40), nullable=False),
        sa.Column("scenario", sa.JSON, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_encounters_gm_id", "encounters", ["gm_id"])
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("encounter_id", sa.String(32), sa.ForeignKey("encounters.id"),
                  nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("combatants", sa.JSON, nullable=False),
    )
    op.create_index("ix_players_encounter_id", "players", ["encounter_id"])
    op.create_index("ix_players_key_hash", "players", ["key_hash"], unique=True)
    op.create_table(
        "records",
        sa.Column("encounter_id", sa.String(32), sa.ForeignKey("encounters.id"),
                  primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("note", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("records")
    op.drop_table("players")
    op.drop_table("encounters")
    op.drop_table("gms")
