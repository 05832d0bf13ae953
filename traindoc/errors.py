"""Errors that reach the user as one clear line and exit code 2 (never a traceback)."""


class UserError(Exception):
    """Bad input: a missing file, a corrupt store, an unknown column. Exit code 2."""

    exit_code = 2
