"""The words every room shares: errors, events and their payloads, a table's setup, its snapshot, what
an event derives, raw values read."""
