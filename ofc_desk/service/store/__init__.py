"""The record: events stored one by one in a hash chain, read back, signed, marked, and said in words;
the room pool's ledger; a desk's checkpoint of a long session; what a failed write tells the dealer."""
