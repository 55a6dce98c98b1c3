"""The card room around the tables: requests to the floor, the room's jackpot pool, its accounts' chain
and policy, which desk holds which table."""
