"""Nickname resolution shared by votes and order parsers (implementation in progress)."""
