"""The installer's helper scripts are imported by name, as the spec imports bundle_contents."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "installer"))
