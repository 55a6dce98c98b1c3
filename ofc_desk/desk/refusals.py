"""The red line where the desk says why something was refused, inline, next to what was typed."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


def refusal_label(parent: QWidget) -> QLabel:
    """It wraps at the width its place gives it and never asks for more: a long unbroken word (a
    pasted mistake) is cut at the edge instead of widening the window off the screen."""
    label = QLabel("", parent)
    label.setObjectName("refusal")
    label.setAccessibleName("Refusal")
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label
