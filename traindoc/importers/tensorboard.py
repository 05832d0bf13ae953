"""TensorBoard event files (``events.out.tfevents.*``): scalars, without TensorFlow.

Needs the ``tensorboard`` package for its generated ``Event`` protobuf classes (it pulls
in grpcio, protobuf, werkzeug: about 90 MB installed), so it is the extra
``traindoc[tensorboard]``, with ``google-crc32c`` for fast record checks; the records
themselves are read by :mod:`.tfrecord`. Nothing from the file is executed.

Scalars come as ``simple_value`` (``torch.utils.tensorboard``, tensorboardX, TF1) or as
0-d tensors of the scalars plugin (TF2 ``tf.summary.scalar``); both are read, and every
point is kept (TensorBoard's UI keeps a 10 000-point sample). Histograms, images and
text are not read.

A run resumed from a checkpoint logs its steps again. TensorBoard keeps both attempts
and draws them over each other (for the version-2 files that torch and TF2 write it
purges only after the restart marker of ``SummaryWriter(purge_step=N)``). A traindoc
series holds one value per step, and a mix of two attempts would diagnose a NaN that the
running attempt never reached, so the newest attempt wins: the ``purge_step`` marker
drops every tag's points from N on, as TensorBoard does, and a new event file (a new
writer) whose first point of a tag goes back drops that tag's older points from there
on. Per tag: a tag logged per epoch never purges one logged per step. Within one file a
step that goes back is not a restart: the later value wins that step. The dropped
points are counted per tag in ``meta["import"]["dropped_points"]``.

A folder: its own event files (oldest writer first, by the wall time of each file's
first event) plus those of the
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


def _purge(pts: dict[int, float], step: int) -> int:
    gone = [s for s in pts if s >= step]
    for s in gone:
        del pts[s]
    return len(gone)


def _scalars(files: list[Path], dropped: dict[str, int] | None = None) -> dict[str, dict[int, float]]:
    """tag -> {step: value} from event files read in order, a resumed attempt's
    orphaned steps purged (counted per tag into ``dropped``)."""
    event_pb2, tensor_util = _proto()
    from google.protobuf.message import DecodeError

    from .tfrecord import records

    dropped = {} if dropped is None else dropped
    out: dict[str, dict[int, float]] = {}
    plugin: dict[str, str] = {}   # a tag's plugin comes with its first value only
    start = event_pb2.SessionLog.START
    for path in files:
        seen: set[str] = set()    # tags already logged in this file
        for i, data in enumerate(records(path)):
            try:
                ev = event_pb2.Event.FromString(data)
            except DecodeError:
                raise UserError(f"{path}: record {i} is not a TensorBoard event") from None
            step = int(ev.step)
            if ev.HasField("session_log") and ev.session_log.status == start:
                # SummaryWriter(purge_step=N) marks a restart: TensorBoard drops every
                # tag's points from N on, and so do we.
                for tag, pts in out.items():
                    if n := _purge(pts, step):
                        dropped[tag] = dropped.get(tag, 0) + n
                continue
            if not ev.HasField("summary"):
                continue
            for v in ev.summary.value:
                if v.metadata.plugin_data.plugin_name:
                    plugin.setdefault(v.tag, v.metadata.plugin_data.plugin_name)
                kind = v.WhichOneof("value")
                if kind == "simple_value":
                    value = float(v.simple_value)
                elif kind == "tensor" and plugin.get(v.tag) == "scalars":
                    arr = tensor_util.make_ndarray(v.tensor)
                    if arr.size != 1:
                        continue
                    value = float(arr.reshape(()))
                else:
                    continue
                pts = out.setdefault(v.tag, {})
                if v.tag not in seen:
                    # A new file is a new writer: if its first point of this tag goes
                    # back, it is a run resumed from an earlier checkpoint, and this tag's
                    # points from there on belong to the abandoned attempt. Per tag, so
                    # a tag logged per epoch never purges one logged per step; within one
                    # file a step that goes back is kept (the later value wins the step).
                    seen.add(v.tag)
                    if pts and step <= max(pts) and (n := _purge(pts, step)):
                        dropped[v.tag] = dropped.get(v.tag, 0) + n
                pts[step] = value
    return out


def _started(path: Path) -> float:
    """Wall time of a file's first event (the writer's start); inf for an empty file."""
    event_pb2, _ = _proto()
    from google.protobuf.message import DecodeError

    from .tfrecord import records

    for data in records(path):
        try:
            return event_pb2.Event.FromString(data).wall_time
        except DecodeError:   # _scalars says which record is bad
            break
    return float("inf")


def _files(folder: Path) -> list[Path]:
    """Event files oldest writer first. Not name order: the name's writer counter is
    not zero-padded (``...pid.10`` sorts before ``...pid.9``) and its time is in whole
    seconds, so a resumed attempt could read as the older one."""
    return sorted((p for p in folder.iterdir() if is_event_file(p)), key=lambda p: (_started(p), p.name))


def load(path: Path) -> ImportedRun:
    dropped: dict[str, int] = {}
    if path.is_file():
        raw = _scalars([path], dropped)
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
        raw = _scalars(_files(root), dropped)
        for sub in dirs:
            if sub == root:
                continue
            name = str(sub.relative_to(root))
            sub_dropped: dict[str, int] = {}
            for tag, pts in _scalars(_files(sub), sub_dropped).items():
                # add_scalars("Loss", {"train": ...}) writes tag "Loss" into "Loss_train/".
                key = f"{tag}/{name[len(tag) + 1:]}" if name.startswith(tag + "_") else f"{name}/{tag}"
                raw.setdefault(key, pts)
                if tag in sub_dropped:
                    dropped[key] = sub_dropped[tag]
        where = root
    if not any(raw.values()):
        raise UserError(f"{path}: no scalar in the TensorBoard event file(s) (only histograms, images or text)")
    # The points of abandoned attempts that were left out, per source tag (the report
    # and the JSON's meta show them: TensorBoard would have drawn them).
    meta = {"import": {"dropped_points": dropped}} if dropped else None
    return build(where, "tensorboard", raw, meta)
