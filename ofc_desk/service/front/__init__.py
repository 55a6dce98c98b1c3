"""What the faces call: `TableService`, one table at one desk, and the queries that open, resume and
list tables."""
