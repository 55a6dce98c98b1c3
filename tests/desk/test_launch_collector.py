"""The cycle collector's hold through a desk's launch (`desk.shell.collector.LaunchHold`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from ofc_desk.desk.shell.collector import LaunchHold


@pytest.fixture
def collector_restored() -> Iterator[None]:
    was_on = gc.isenabled()
    yield
    gc.unfreeze()
    if was_on:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.usefixtures("collector_restored")
def test_a_launch_holds_the_collector_then_freezes_what_it_made_and_turns_it_on_again() -> None:
    gc.enable()
    hold = LaunchHold.begin()
    assert hold.held and not gc.isenabled()
    frozen_before = gc.get_freeze_count()
    hold.end()
    assert gc.isenabled() and not hold.held
    assert gc.get_freeze_count() > frozen_before
    gc.disable()
    hold.end()  # once only: a second end leaves the collector as it is
    assert not gc.isenabled()


@pytest.mark.usefixtures("collector_restored")
def test_a_hold_begun_with_the_collector_off_leaves_it_off() -> None:
    gc.disable()
    hold = LaunchHold.begin()
    assert not hold.held
    frozen_before = gc.get_freeze_count()
    hold.end()
    assert not gc.isenabled()
    assert gc.get_freeze_count() == frozen_before
