"""The folder a report is proposed to be saved to (File → Session report…, Save): the last one used,
kept in the desk's (or the floor's) settings from one run to the next. Apart from the report's
preview and printing (`report_actions`), which load Qt's print support: the desk's start keeps the
folder without them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

_last_folder: list[Path] = []
"""The folder the last report was saved to in this run of the desk."""
_kept_in: list[QSettings] = []
"""The settings file of the desk (or the floor) that keeps that folder from one run to the next."""
REPORT_FOLDER_KEY = "reports/last_folder"


def keep_report_folder_in(settings: QSettings) -> None:
    """The desk's (or the floor's) settings keep the folder the last report went to: the dealer
    finds it proposed again after a restart."""
    _kept_in[:] = [settings]


def report_folder() -> Path:
    """Where a report is proposed to be saved: the folder the last one went to (in this run, else
    as the settings keep it), else the dealer's Documents (else their home), never the folder the
    desk happened to start in."""
    if _last_folder:
        return _last_folder[-1]
    kept = _kept_folder()
    if kept is not None:
        return kept
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents) if documents else Path.home()


def _kept_folder() -> Path | None:
    """The kept folder, if it is still there: a folder since removed (a USB stick taken out) is
    not proposed."""
    if not _kept_in:
        return None
    kept = str(_kept_in[0].value(REPORT_FOLDER_KEY, "") or "")
    return Path(kept) if kept and Path(kept).is_dir() else None


def remember_report_folder(folder: Path) -> None:
    _last_folder[:] = [folder]
    if _kept_in:
        _kept_in[0].setValue(REPORT_FOLDER_KEY, str(folder))
