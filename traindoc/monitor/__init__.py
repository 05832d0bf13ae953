"""Observe a training run through PyTorch's global hooks and write it to a run store."""

from .monitor import Monitor, TraindocWarning, active, watch

__all__ = ["Monitor", "TraindocWarning", "active", "watch"]
