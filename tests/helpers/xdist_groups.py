"""Tests marked `xdist_group` run on one worker under `--dist loadgroup`, as pytest-xdist means.

xdist tells its scheduler a test's group by appending `@group` to the test's id on the worker, and
it does so by assigning `item._nodeid`; pytest 9 reads the id from `item._id`, so the suffix never
reached the scheduler and every grouped test ran wherever it fell (pytest-xdist issue 1386): a
module's costly shared fixture was built once on each worker. `keep_groups_together` appends the
suffix where the id is really kept, and only where xdist's own did not (pytest 8, a fixed xdist).
tests/test_xdist_groups.py runs a planted suite on two workers to prove the groups hold.
"""

from __future__ import annotations

import pytest


def group_suffix(item: pytest.Item) -> str:
    """`@name` as xdist writes it (several groups sorted and joined by `_`), or "" for no group."""
    names = {
        str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for mark in item.iter_markers("xdist_group")
    }
    return "@" + "_".join(sorted(names)) if names else ""


def keep_groups_together(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker under `--dist loadgroup`, give each grouped test the id xdist meant."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        suffix = group_suffix(item)
        if suffix and not item.nodeid.endswith(suffix):
            item._id = type(item._id).parse(item.nodeid + suffix)
