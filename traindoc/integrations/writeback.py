"""The diagnosis, written back into the tools the script already logs to.

At the end of a run (``traindoc run``, or the one-line Lightning/HF callbacks), where the
user looks is their TensorBoard, W&B or MLflow page, not traindoc's folder. When the script
itself used one of them, traindoc adds, next to the script's own data:

- TensorBoard: every log directory that received event files from this process during the
  run (found on disk under the working directory by the pid in the files' names, so torch's
  SummaryWriter, tensorboardX, Lightning's and HF's loggers all count) gets one more event file (suffix ``.traindoc``) with a text entry
  ``traindoc/diagnosis`` (the ranked causes, the fix, the command that explains) and a
  scalar ``traindoc/anomaly`` = 1 at each step where the loss or a gradient went non-finite
  or spiked. The markers are at traindoc's step numbers (optimizer steps, shifted by the
  framework's counter at the start of a resumed fit): the script's axis when it logs once
  per optimizer step (the HF Trainer, Lightning with one optimizer), not when it logs per
  batch or per sample.
- MLflow: the active (or last active) run gets ``traindoc/diagnosis.md`` as an artifact, a
  tag ``traindoc.top_cause`` and the metric ``traindoc_anomaly`` at the same steps.
- W&B: the run's summary gets ``traindoc/top_cause`` and ``traindoc/diagnosis``, and an
  alert (``run.alert``) when a cause or symptom of severity error was found: at the end
  when the run is still live, or, under ``traindoc run``, just before the script finishes
  it (``wandb.finish()``), with the diagnosis of the run up to that point (the replay of a
  NaN step comes after the script ends and is not in it).

Nothing is imported that the script did not import itself (the core install stays light),
nothing is written when the script used none of them, and ``TRAINDOC_WRITEBACK=0`` or
``traindoc run --no-writeback`` turns it off. A failure here is reported in one line and
never changes the run's exit code.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

MAX_DIRS = 8  # log directories written to, at most
MAX_MARKERS = 200  # anomaly markers per tool
_SKIP = {".git", ".hg", ".venv", "venv", "env", "node_modules", "site-packages", "__pycache__", ".tox",
         ".mypy_cache", ".pytest_cache", "wandb", "mlruns"}


def enabled() -> bool:
    return os.environ.get("TRAINDOC_WRITEBACK", "1") != "0"


def markdown(d: Any, run_dir: Path) -> str:
    """The diagnosis as a short markdown text (what a TensorBoard text panel shows)."""
    steps = d.run.meta.get("steps")
    lines = [f"**traindoc** diagnosis of `{run_dir}`" + (f" ({steps} steps)" if steps is not None else "")]
    if d.causes:
        lines.append("")
        lines.append("Most likely cause first:")
        for i, c in enumerate(d.causes[:3], 1):
            conf = f"{c.confidence:.0%}, " if c.confidence is not None else ""
            lines.append(f"{i}. **{c.name}** ({conf}{c.severity}): {c.message}")
            if c.fix:
                lines.append(f"   - fix: {c.fix}")
    if d.symptoms:
        lines.append("")
        lines.append("What the run showed: " + "; ".join(f"{s.name} ({s.severity})" for s in d.symptoms[:6]))
    if not d.causes and not d.symptoms:
        lines.append("")
        lines.append("No problem found.")
    lines.append("")
    lines.append(f"`traindoc diagnose {run_dir}` for the evidence, `traindoc explain NAME` for a cause.")
    return "\n".join(lines)


def anomaly_steps(run: Any) -> list[int]:
    """Steps the monitor marked (non-finite loss/gradient, spikes that triggered a bundle), on
    the framework's step axis when a callback recorded where its counter stood at the start
    (a resumed fit), else traindoc's (one per optimizer step)."""
    offset = int((run.meta.get("framework") or {}).get("global_step_at_start") or 0)
    steps: set[int] = set()
    for r in getattr(run, "ranks", [0]):
        for ev in run.events(r):
            if ev.get("kind") in ("anomaly", "trigger") and ev.get("step") is not None:
                steps.add(int(ev["step"]) + offset)
    return sorted(steps)[:MAX_MARKERS]


def event_dirs(root: Path, since: float, exclude: Path | None = None, max_depth: int = 5,
               pid: int | None = None, max_visits: int = 5000) -> list[Path]:
    """Directories under ``root`` holding TensorBoard event files that this process wrote
    since ``since``: the writers name their files ``events.out.tfevents.<time>.<host>.<pid>...``,
    so a parallel job logging under the same folder is not annotated with this run's
    diagnosis. A bounded walk: at most ``max_visits`` folders, ``max_depth`` deep; hidden
    folders, virtualenvs and other tools' stores are skipped."""
    found: list[Path] = []
    root = root.resolve()
    excl = exclude.resolve() if exclude is not None else None
    base = len(root.parts)
    mark = f".{os.getpid() if pid is None else pid}"
    for visits, (dirpath, dirnames, filenames) in enumerate(os.walk(root)):
        p = Path(dirpath)
        if visits >= max_visits:
            break
        if len(p.parts) - base >= max_depth:
            dirnames[:] = []
        dirnames[:] = [n for n in dirnames if n not in _SKIP and not n.startswith(".")
                       and (excl is None or p / n != excl)]
        for f in filenames:
            if not f.startswith("events.out.tfevents.") or f.endswith(".traindoc"):
                continue
            parts = f[len("events.out.tfevents."):].split(".")
            if mark[1:] not in parts[2:]:  # <time>.<host...>.<pid>: the host may hold dots
                continue
            try:
                if (p / f).stat().st_mtime >= since - 1:
                    found.append(p)
                    break
            except OSError:
                continue
        if len(found) >= MAX_DIRS:
            break
    return found


def _tensorboard(d: Any, run: Any, run_dir: Path, since: float, cwd: Path) -> str | None:
    dirs = event_dirs(cwd, since, exclude=run_dir)
    if not dirs:
        return None
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        return (f"traindoc: TensorBoard logs in {dirs[0]} were not annotated (the tensorboard package, which "
                "torch.utils.tensorboard needs, is not installed)")
    text = markdown(d, run_dir)
    marks = anomaly_steps(run)
    last = int(run.meta.get("steps") or 1) - 1
    for p in dirs:
        w = SummaryWriter(log_dir=str(p), filename_suffix=".traindoc")
        try:
            w.add_text("traindoc/diagnosis", text, global_step=max(last, 0))
            for s in marks:
                w.add_scalar("traindoc/anomaly", 1.0, global_step=s)
        finally:
            w.close()
    where = ", ".join(str(p) for p in dirs)
    return f"traindoc: the diagnosis and {len(marks)} anomaly marker(s) were added to the TensorBoard logs in {where}"


def _mlflow(d: Any, run: Any, run_dir: Path) -> str | None:
    mlflow = sys.modules.get("mlflow")
    if mlflow is None:
        return None
    active = mlflow.active_run() or (mlflow.last_active_run() if hasattr(mlflow, "last_active_run") else None)
    if active is None:
        return None
    rid = active.info.run_id
    client = mlflow.MlflowClient()
    client.log_text(rid, markdown(d, run_dir), "traindoc/diagnosis.md")
    client.set_tag(rid, "traindoc.top_cause", d.causes[0].name if d.causes else "none")
    marks = anomaly_steps(run)
    if marks:
        from mlflow.entities import Metric

        now = int(time.time() * 1000)
        client.log_batch(rid, metrics=[Metric("traindoc_anomaly", 1.0, now, s) for s in marks])
    return f"traindoc: the diagnosis was added to MLflow run {rid} (artifact traindoc/diagnosis.md, tag traindoc.top_cause)"


def _wandb(d: Any, run: Any, run_dir: Path) -> str | None:
    wandb = sys.modules.get("wandb")
    wrun = getattr(wandb, "run", None) if wandb is not None else None
    if wrun is None:
        if _AT_FINISH:  # the script finished its run: written then (see watch_wandb_finish)
            rid, step = _AT_FINISH.pop()
            _AT_FINISH.clear()
            return (f"traindoc: the diagnosis as of the script's wandb finish (step {step}) was added to W&B "
                    f"run {rid} (summary traindoc/*)")
        return None
    _to_wandb(wandb, wrun, d, run_dir)
    return f"traindoc: the diagnosis was added to W&B run {getattr(wrun, 'id', '?')} (summary traindoc/*)"


def _to_wandb(wandb: Any, wrun: Any, d: Any, run_dir: Path) -> None:
    top = d.causes[0].name if d.causes else "none"
    wrun.summary["traindoc/top_cause"] = top
    wrun.summary["traindoc/diagnosis"] = markdown(d, run_dir)
    severe = [f for f in (*d.causes, *d.symptoms) if f.severity == "error"]
    alert = getattr(wrun, "alert", None) or getattr(wandb, "alert", None)  # this run's, else wandb.run's
    if severe and alert is not None:
        level = getattr(getattr(wandb, "AlertLevel", None), "ERROR", None)
        kw = {"level": level} if level is not None else {}
        alert(title=f"traindoc: {top}", text=markdown(d, run_dir)[:900], **kw)


_AT_FINISH: list[tuple[str, int]] = []  # (W&B run id, step) written at the script's finish


def watch_wandb_finish(mon: Any, setattr_: Any) -> bool:
    """Under ``traindoc run``, a script that finishes its W&B run itself (``wandb.finish()``,
    ``run.finish()``, ``with wandb.init() as run:``) gets the diagnosis of the run so far in
    that run's summary just before it closes: after, W&B takes no more data from this process
    and reopening the run would need the network. ``setattr_`` patches (the monitor's,
    undone at its close). Called once, when the script has imported wandb; False when this
    wandb has no ``Run._finish`` to wrap."""
    wandb = sys.modules.get("wandb")
    try:
        from wandb.sdk.wandb_run import Run
    except Exception:  # noqa: BLE001 - another wandb layout: the end-of-run write still covers a live run
        return False
    orig = getattr(Run, "_finish", None)
    if orig is None:
        return False

    def _finish(self, *args, **kwargs):
        if not getattr(self, "_is_finished", False) and not mon.closed and mon.writer is not None:
            try:
                _before_finish(wandb, mon, self)
            except Exception as exc:  # noqa: BLE001 - the user's tools must never fail the run
                print(f"traindoc: could not write the diagnosis to W&B ({type(exc).__name__}: {exc})",
                      file=sys.stderr)
        return orig(self, *args, **kwargs)

    _finish.__wrapped__ = orig  # type: ignore[attr-defined]
    setattr_(Run, "_finish", _finish)
    return True


def _before_finish(wandb: Any, mon: Any, wrun: Any) -> None:
    from ..diagnose import diagnose

    mon.recorder.drain(final=False)  # the last step's deferred values
    if not mon.writer.flush():
        raise TimeoutError("the run's store did not flush in time")
    d = diagnose(mon.out)
    _to_wandb(wandb, wrun, d, Path(mon.out))
    _AT_FINISH.append((str(getattr(wrun, "id", "?")), mon.step))


def mirror(d: Any, run_dir: str | Path, since: float | None = None, cwd: str | Path | None = None) -> list[str]:
    """Write ``d`` (a Diagnosis of the run in ``run_dir``) into the tools the script used;
    returns one line per tool written to (or per failure), to print."""
    if not enabled():
        return []
    run_dir = Path(run_dir)
    run = d.run
    since = since if since is not None else time.time() - 24 * 3600
    cwd = Path(cwd) if cwd is not None else Path.cwd()
    out = []
    for name, fn in (("TensorBoard", lambda: _tensorboard(d, run, run_dir, since, cwd)),
                     ("MLflow", lambda: _mlflow(d, run, run_dir)),
                     ("W&B", lambda: _wandb(d, run, run_dir))):
        try:
            msg = fn()
        except Exception as exc:  # noqa: BLE001 - the user's tools must never fail the run
            msg = f"traindoc: could not write the diagnosis to {name} ({type(exc).__name__}: {exc})"
        if msg:
            out.append(msg)
    return out
