"""Replaying a scripted session: its vocabulary, its accounts, and the walk."""
