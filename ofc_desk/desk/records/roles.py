"""The roles the record views and the floor's list answer beyond Qt's own, apart from the models
so the floor's list loads without the record views (they load when a table's records are opened)."""

from __future__ import annotations

from PySide6.QtCore import Qt

SORT_ROLE = int(Qt.ItemDataRole.UserRole) + 1
"""A value that sorts right: numbers as numbers."""
OBJECT_ROLE = int(Qt.ItemDataRole.UserRole) + 2
"""The service's record itself (the floor's list: its `FloorTable`)."""
