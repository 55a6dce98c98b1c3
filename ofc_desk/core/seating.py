"""Who deals, in what order players act, and where the button goes (docs/rules.md §6 and §7).

Seats are names in clockwise order. A seat is "playing" when its player is dealt in; a player
sitting out keeps the seat but is passed over.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def clockwise_from(seats: Sequence[str], first: str) -> list[str]:
    """Every seat once, clockwise, starting with `first`.

    >>> clockwise_from(["West", "North", "East", "South"], "East")
    ['East', 'South', 'West', 'North']
    """
    start = seats.index(first)
    return [seats[(start + step) % len(seats)] for step in range(len(seats))]


def dealer_for_hand(seats: Sequence[str], button: str | None, playing: Collection[str]) -> str | None:
    """The button holder if they play this hand, else the next playing seat clockwise; None when
    nobody plays. A button at no seat (its holder left) counts from the first seat.

    >>> dealer_for_hand(["West", "North", "East"], "North", {"West", "North", "East"})
    'North'
    >>> dealer_for_hand(["West", "North", "East"], "North", {"West", "East"})
    'East'
    >>> dealer_for_hand(["West", "North", "East"], "Gone", {"North"})
    'North'
    """
    if not seats:
        return None
    first = button if button is not None and button in seats else seats[0]
    return next((seat for seat in clockwise_from(seats, first) if seat in playing), None)


def acting_order(playing: Sequence[str], dealer: str) -> list[str]:
    """The player to the dealer's left acts first, then clockwise, the dealer last (§7).

    >>> acting_order(["West", "North", "East", "South"], "North")
    ['East', 'South', 'West', 'North']
    """
    order = clockwise_from(playing, dealer)
    return order[1:] + order[:1]


def next_button(seats: Sequence[str], holder: str, sitting_out: Collection[str]) -> str:
    """The button moves one occupied seat clockwise (§6): the next seat whose player is not
    sitting out; back to the holder when every other player sits out.

    >>> next_button(["West", "North", "East"], "West", set())
    'North'
    >>> next_button(["West", "North", "East"], "West", {"North"})
    'East'
    >>> next_button(["West", "North", "East"], "East", {"West", "North"})
    'East'
    """
    after_holder = clockwise_from(seats, holder)[1:]
    return next((seat for seat in after_holder if seat not in sitting_out), holder)
