"""The forensics of a run's replayed bundles, for the rules that read them."""

from __future__ import annotations

from pathlib import Path


def forensics_files(run) -> list[Path]:
    """``bundles/*/forensics.json`` of the run's folder, in step order (none for a run
    without a folder or without bundles)."""
    folder = getattr(run, "folder", None)
    base = Path(folder) / "bundles" if folder is not None else None
    if base is None or not base.is_dir():
        return []
    return sorted(base.glob("*/forensics.json"))
