"""Redo survives a restart: what undo took back is kept with the encounter.

``encounters.redo`` is the redo stack (a list of groups of session inputs, the last undone
last), written in the same transaction as the records.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    with op.batch_alter_table("encounters") as batch:
        batch.add_column(sa.Column("redo", sa.JSON, nullable=False,
                                   server_default=sa.text("'[]'")))


def downgrade() -> None:
    with op.batch_alter_table("encounters") as batch:
        batch.drop_column("redo")
