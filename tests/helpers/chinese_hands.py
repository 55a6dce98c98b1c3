"""Chinese-poker hands the tests of several layers enter: two seeded 13-card hands, and the rows
a set hand's 13 cards go to (3 front, 5 middle, 5 back)."""

from __future__ import annotations

ROWS = "f f f m m m m m b b b b b"
SEED_A = "6s 6h 6d 4s 4h 4d 9s 9h Ks Kh Kd 8s 8h"
"""By rows: three sixes; three fours and two nines; three kings and two eights."""
SEED_B = "Qs Qh 7d Js Jh Jd 2s 2h 5s 5h 5d 5c Ad"
"""By rows: two queens and a seven; three jacks and two twos; four fives and an ace."""
