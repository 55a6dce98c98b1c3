"""The same room under another login: PostgreSQL's own URL for psycopg, and a role's URL."""

from __future__ import annotations

from sqlalchemy.engine import make_url


def libpq(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def as_login(url: str, login: str) -> str:
    return make_url(url).set(username=login).render_as_string(hide_password=False)
