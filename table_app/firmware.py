"""The firmware installer's old name, kept for callers not yet moved to
table_app/admin/firmware.py (where it lives)."""

from __future__ import annotations

from .admin.firmware import install

__all__ = ["install"]
