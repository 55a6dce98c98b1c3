"""Durable storage: SQLAlchemy models, Alembic migrations, the hash-chained event log, users."""
