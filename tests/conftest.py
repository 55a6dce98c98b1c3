"""Shared test set-up. Qt must see the offscreen platform before it loads."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
