"""An account with an empty PIN never signs in, whatever is stored (issue 34): the built-in replay
dealer's PIN is empty, and an account forced in with an empty PIN is refused the same."""

from __future__ import annotations

import pytest

from ofc_desk.storage.account_changes import _create_in, create_accounts
from ofc_desk.storage.database import Database
from ofc_desk.storage.users import Role, SignInError, builtin_replay_account, sign_in


def test_an_empty_pin_never_signs_in(migrated_database_url: str) -> None:
    database = Database(migrated_database_url)
    try:
        create_accounts(database, [("Sue", Role.SUPERVISOR, "43214321")], builtin=True)
        assert builtin_replay_account(database) is not None  # the replay's to use, by its key
        supervisor = sign_in(database, "Sue", "43214321")
        with database.session() as session:  # an account stored with an empty PIN, approved
            _create_in(session, "Eve", Role.DEALER, "", supervisor)
            session.commit()
        for name in ("replay", "Eve"):
            for role in (None, Role.DEALER, Role.SUPERVISOR):
                with pytest.raises(SignInError, match=r"^wrong name or PIN"):
                    sign_in(database, name, "", role)
    finally:
        database.dispose()
