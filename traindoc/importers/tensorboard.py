"""TensorBoard event files (``events.out.tfevents.*``), read with the ``tensorboard``
package's ``EventAccumulator``: no TensorFlow, no code from the file, records checked
by CRC, a run restarted from a checkpoint purged of its orphaned steps the way
TensorBoard shows it.

``tensorboard`` pulls in grpcio, protobuf, werkzeug and pillow (about 90 MB installed,
0.3 s to import), so it is the extra ``traindoc[tensorboard]``, imported only here.

Scalars come as ``simple_value`` (``torch.utils.tensorboard``, tensorboardX, TF1) or as
0-d tensors of the scalars plugin (TF2 ``tf.summary.scalar``); both are read, every
point kept (``size_guidance`` 0: TensorBoard's default keeps a 10 000-point sample).
Histograms, images and text are not read.

A folder: its own event files plus those of sub-folders that ``add_scalars`` makes
(``Loss_train/`` holding tag ``Loss`` becomes ``Loss/train``). A folder whose event
files sit only in several sub-folders holds several runs: the user picks one.
"""

from __future__ import annotations

import logging
from pathlib import Path

from ..errors import UserError
from .base import ImportedRun, build

INSTALL = "pip install 'traindoc[tensorboard]'"


def is_event_file(p: Path) -> bool:
    return p.is_file() and "tfevents" in p.name


def event_dirs(folder: Path) -> list[Path]:
    """Folders under ``folder`` (itself included) that hold event files, sorted."""
    return sorted({p.parent for p in folder.rglob("*tfevents*") if p.is_file()})


def _accumulator():
    try:
        from tensorboard.backend.event_processing import event_accumulator as ea
    except ImportError:
        raise UserError(f"reading TensorBoard event files needs the tensorboard package: {INSTALL}") from None
    return ea


def _scalars(path: Path) -> dict[str, dict[int, float]]:
    """tag -> {step: value} of one event file or one folder of them (in file order)."""
    ea = _accumulator()
    from tensorboard.util import tensor_util

    size = {ea.SCALARS: 0, ea.TENSORS: 0, ea.HISTOGRAMS: 1, ea.IMAGES: 1, ea.AUDIO: 1,
            ea.COMPRESSED_HISTOGRAMS: 1}
    acc = ea.EventAccumulator(str(path), size_guidance=size)
    log = logging.getLogger("tensorboard")
    level = log.level
    log.setLevel(logging.ERROR)   # its warnings about bad records would break "one line, exit 2"
    try:
        acc.Reload()
    except Exception as exc:  # noqa: BLE001 - the library raises several types on bad files
        raise UserError(f"{path}: not a readable TensorBoard event file ({type(exc).__name__}: {exc})") from None
    finally:
        log.setLevel(level)
    out: dict[str, dict[int, float]] = {}
    tags = acc.Tags()
    for tag in tags.get(ea.SCALARS, []):
        out[tag] = {int(e.step): float(e.value) for e in acc.Scalars(tag)}
    for tag in tags.get(ea.TENSORS, []):
        if acc.SummaryMetadata(tag).plugin_data.plugin_name != "scalars" or tag in out:
            continue
        pts = {}
        for e in acc.Tensors(tag):
            arr = tensor_util.make_ndarray(e.tensor_proto)
            if arr.size == 1:
                pts[int(e.step)] = float(arr.reshape(()))
        out[tag] = pts
    return out


def load(path: Path) -> ImportedRun:
    if path.is_file():
        raw = _scalars(path)
        where = path
    else:
        dirs = event_dirs(path)
        if not dirs:
            raise UserError(f"{path}: no TensorBoard event file (events.out.tfevents.*) inside")
        if path not in dirs and len(dirs) > 1:
            shown = ", ".join(str(d.relative_to(path)) for d in dirs[:8]) + (" ..." if len(dirs) > 8 else "")
            raise UserError(f"{path}: holds the event files of {len(dirs)} runs ({shown}); give one of them")
        root = path if path in dirs else dirs[0]
        raw = _scalars(root)
        for sub in dirs:
            if sub == root:
                continue
            name = str(sub.relative_to(root))
            for tag, pts in _scalars(sub).items():
                # add_scalars("Loss", {"train": ...}) writes tag "Loss" into "Loss_train/".
                key = f"{tag}/{name[len(tag) + 1:]}" if name.startswith(tag + "_") else f"{name}/{tag}"
                raw.setdefault(key, pts)
        where = root
    if not any(raw.values()):
        raise UserError(f"{path}: no scalar in the TensorBoard event file(s) (a corrupt or foreign file, or "
                        "only histograms/images)")
    return build(where, "tensorboard", raw)
