"""Confirmation experiments: re-execute the recorded script with one thing changed and
turn the diagnosis's ranked guesses into tested causes (``traindoc confirm RUN``)."""

from .run import Confirmation, confirm

__all__ = ["Confirmation", "confirm"]
