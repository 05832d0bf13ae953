"""TensorBoard event files (``events.out.tfevents.*``): scalars, without TensorFlow.

Needs the ``tensorboard`` package for its generated ``Event`` protobuf classes (it pulls
in grpcio, protobuf, werkzeug: about 90 MB installed), so it is the extra
``traindoc[tensorboard]``, with ``google-crc32c`` for fast record checks; the records
themselves are read by :mod:`.tfrecord`. Nothing from the file is executed.

Scalars come as ``simple_value`` (``torch.utils.tensorboard``, tensorboardX, TF1) or as
0-d tensors of the scalars plugin (TF2 ``tf.summary.scalar``); both are read, and every
point is kept (TensorBoard's UI keeps a 10 000-point sample). Histograms, images and
text are not read. A run resumed from a checkpoint rewrites steps: as TensorBoard does,
a step that goes back drops the points at and after it that the earlier attempt wrote.

A folder: its own event files (in name order, which is time order) plus those of the
sub-folders that ``add_scalars`` makes (``Loss_train/`` holding tag ``Loss`` becomes
``Loss/train``). A folder whose event files sit only in several sub-folders holds
several runs: the user picks one.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UserError
from .base import ImportedRun, build

INSTALL = "pip install 'traindoc[tensorboard]'"


def is_event_file(p: Path) -> bool:
    return p.is_file() and "tfevents" in p.name


def event_dirs(folder: Path) -> list[Path]:
    """Folders under ``folder`` (itself included) that hold event files, sorted."""
    return sorted({p.parent for p in folder.rglob("*tfevents*") if p.is_file()})


def _proto():
    try:
        from tensorboard.compat.proto import event_pb2
        from tensorboard.util import tensor_util
    except ImportError:
        raise UserError(f"reading TensorBoard event files needs the tensorboard package: {INSTALL}") from None
    return event_pb2, tensor_util


def _scalars(files: list[Path]) -> dict[str, dict[int, float]]:
    """tag -> {step: value} from event files read in order, restarts purged."""
    event_pb2, tensor_util = _proto()
    from google.protobuf.message import DecodeError

    from .tfrecord import records

    out: dict[str, dict[int, float]] = {}
    plugin: dict[str, str] = {}   # a tag's plugin comes with its first value only
    latest = -1
    for path in files:
        for i, data in enumerate(records(path)):
            try:
                ev = event_pb2.Event.FromString(data)
            except DecodeError:
                raise UserError(f"{path}: record {i} is not a TensorBoard event") from None
            if not ev.HasField("summary"):
                continue
            step = int(ev.step)
            if step < latest:   # resumed from an earlier checkpoint: the old future is void
                for pts in out.values():
                    for s in [s for s in pts if s >= step]:
                        del pts[s]
            latest = step
            for v in ev.summary.value:
                if v.metadata.plugin_data.plugin_name:
                    plugin.setdefault(v.tag, v.metadata.plugin_data.plugin_name)
                kind = v.WhichOneof("value")
                if kind == "simple_value":
                    out.setdefault(v.tag, {})[step] = float(v.simple_value)
                elif kind == "tensor" and plugin.get(v.tag) == "scalars":
                    arr = tensor_util.make_ndarray(v.tensor)
                    if arr.size == 1:
                        out.setdefault(v.tag, {})[step] = float(arr.reshape(()))
    return out


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if is_event_file(p))


def load(path: Path) -> ImportedRun:
    if path.is_file():
        raw = _scalars([path])
        where = path
    else:
        dirs = event_dirs(path)
        if not dirs:
            raise UserError(f"{path}: no TensorBoard event file (events.out.tfevents.*) inside")
        # A run is an event folder with the add_scalars folders under it.
        roots = [d for d in dirs if not any(o in d.parents for o in dirs)]
        if len(roots) > 1:
            shown = ", ".join(str(d.relative_to(path)) for d in roots[:8]) + (" ..." if len(roots) > 8 else "")
            raise UserError(f"{path}: holds the event files of {len(roots)} runs ({shown}); give one of them")
        root = roots[0]
        raw = _scalars(_files(root))
        for sub in dirs:
            if sub == root:
                continue
            name = str(sub.relative_to(root))
            for tag, pts in _scalars(_files(sub)).items():
                # add_scalars("Loss", {"train": ...}) writes tag "Loss" into "Loss_train/".
                key = f"{tag}/{name[len(tag) + 1:]}" if name.startswith(tag + "_") else f"{name}/{tag}"
                raw.setdefault(key, pts)
        where = root
    if not any(raw.values()):
        raise UserError(f"{path}: no scalar in the TensorBoard event file(s) (only histograms, images or text)")
    return build(where, "tensorboard", raw)
