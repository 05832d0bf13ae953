"""The step's record: what the measurements collected for one step, through one
:class:`~.quantities.Transfer` to the host, into the run store; the anomaly events and
the triggers of a bundle on the host floats; the records deferred to a later transfer (a
second optimizer's, a loss function's target range, the update ratio, the label
histogram, the leak check), each with what turns its floats into writes.

Two ways to read (``Monitor(reads=...)``, ``traindoc run --reads``):

- ``sync``: the step's transfer is read at its own boundary: one device-to-host sync per
  step on a GPU, and the triggers fire before the step's ``optimizer.step``, from the live
  weights.
- ``lagged``: the transfer of step t is read at the boundary of step t+1 (the device has
  passed it by then: nothing on the training thread waits for the device), and the
  triggers act on step t then. A bundle needs the weights step t's forward used, which
  ``optimizer.step`` has since overwritten: ``Capture.keep_state`` copies them on the
  device at every boundary (one copy of the parameters and buffers in device memory, one
  device-side copy per step).
- ``auto`` (default): lagged on a GPU when that copy fits in ``TRAINDOC_LAGGED_MAX_FRACTION``
  (default 0.05) of the device's memory, i.e. for the small and medium models whose short
  steps a sync stalls most; sync otherwise, and always on CPU, where a read waits for
  nothing.
"""

from __future__ import annotations

import math
import os
from typing import Any, Callable

import numpy as np
import torch

from .quantities import Transfer

MODES = ("auto", "sync", "lagged")
# a deferred record: (step, names of its floats, tensors, what writes them: None = scalars)
Deferred = tuple[int, list[str], list[torch.Tensor], "Callable[[int, list[float]], None] | None"]


class _Pending:
    """A step whose transfer has started and whose floats are not read yet: everything
    :meth:`Recorder._write` needs that the host knew at the step's boundary."""

    __slots__ = ("step", "names", "k", "transfer", "deferred", "lrs", "params", "pnames", "gkeys", "norms",
                 "skipped", "eval_names", "n_fn", "fn_names", "sampled", "data_time", "step_time",
                 "indices", "unused")


class Recorder:
    """Owned by the monitor; called by the measurement that ends a step (``Optimizers``,
    ``BackwardClock``)."""

    def __init__(self, mon: Any, reads: str = "auto") -> None:
        if reads not in MODES:
            from ..errors import UserError

            raise UserError(f"reads={reads!r}: expected one of {', '.join(MODES)}")
        self.mon = mon
        self.reads = reads
        self.lagged: bool | None = None  # decided at the first step (needs the model's device)
        self._t_last: float | None = None
        self._deferred: list[Deferred] = []  # ride with the next transfer
        self._pending: _Pending | None = None  # lagged: the step read at the next boundary
        self._anomalies = 0

    def defer(self, step: int, names: list[str], tensors: list[torch.Tensor],
              post: Callable[[int, list[float]], None] | None = None) -> None:
        """Values of ``step`` that ride with the next transfer (no sync of their own);
        ``post(step, floats)`` writes them (default: as scalars named ``names``)."""
        self._deferred.append((step, names, tensors, post))

    # ------------------------------------------------------------------ the mode
    def _decide(self) -> bool:
        """Lagged or not, once, at the first step; the run's meta says which and why."""
        mon = self.mon
        mode = os.environ.get("TRAINDOC_READS", self.reads)
        if mode not in MODES:
            mode = self.reads
        cuda = [t for _, m in mon.live_roots() for t in m.parameters() if t.is_cuda][:1]
        if mode != "auto":
            lagged, why = mode == "lagged", "asked for"
        elif not cuda:
            lagged, why = False, "the model is not on a GPU: a read waits for nothing"
        else:
            need = mon.capture.state_bytes() if mon.capture.enabled else 0
            frac = float(os.environ.get("TRAINDOC_LAGGED_MAX_FRACTION", "0.05"))
            total = torch.cuda.get_device_properties(cuda[0].device).total_memory
            lagged = need <= frac * total
            why = (f"a device copy of the weights ({need / 2**30:.2f} GiB) "
                   f"{'fits in' if lagged else 'exceeds'} {frac:.0%} of the GPU's memory")
        mon.writer.meta("reads", {"mode": "lagged" if lagged else "sync", "asked": mode, "why": why})
        return lagged

    # ------------------------------------------------------------------ a step ends
    def finish(self, names: list[str], tensors: list[torch.Tensor], lrs: dict[str, float],
               params: list[torch.Tensor], pnames: list[str], norms: list[torch.Tensor],
               skipped: bool = False, gkeys: list[str] | None = None) -> None:
        """The primary step's record: its transfer starts; read now (sync) or at the next
        boundary (lagged); then the writes and the triggers."""
        mon = self.mon
        rec = mon.rec
        if self.lagged is None:
            self.lagged = self._decide()
        now = mon.timer()
        step_time = None if self._t_last is None else now - self._t_last
        self._t_last = now
        if step_time is not None and not rec.sampled:
            mon.sampler.observe(step_time, None)
        mon.guard("time-grads", mon.models.time_grads.take, rec.act_names, rec.act_vals)
        if rec.act_vals:
            if rec.sampled:  # (an unsampled step carries only in/absmax)
                mon.models.note_repeats(rec.act_names, rec.fwd_group)
            names.extend(rec.act_names)
            vals = rec.act_vals  # an unsampled step's in/absmax alone goes as it is (no stack: 3 ops fewer)
            tensors.append(vals[0].reshape(1) if len(vals) == 1 else torch.stack([v.float().reshape(()) for v in vals]))
        p = _Pending()
        p.eval_names = mon.loss_fns.eval_tensors(names, tensors)
        fn_losses = mon.loss_fns.take_fn_losses()
        p.n_fn, p.fn_names = len(fn_losses), mon.loss_fns.taken_names
        if fn_losses:  # losses the loss functions computed this step (some perhaps never backpropagated)
            names.extend(f"_fn_loss/{i}" for i in range(len(fn_losses)))
            tensors.extend(fn_losses)  # 0-d each; the transfer flattens them (no stack: 3 ops a step fewer)
        if rec.sampled and mon.loss_fns.label_counts is not None:  # (reading it folds the counts)
            mon.loss_fns.defer_labels()
        p.step, p.names, p.k = mon.step, names, sum(t.numel() for t in tensors)
        p.deferred, self._deferred = self._deferred, []
        p.transfer = Transfer(tensors + [t for d in p.deferred for t in d[2]])
        p.lrs, p.params, p.pnames, p.norms, p.skipped = lrs, params, pnames, norms, skipped
        p.gkeys = gkeys if gkeys is not None else [f"grad_norm/{n}" for n in pnames]  # the names' series
        p.sampled, p.data_time, p.step_time = rec.sampled, rec.data_time, step_time
        p.indices = np.concatenate(rec.indices) if rec.indices else None
        # the batches drawn and never backpropagated, should a skipped loss be found at the read
        p.unused = list(mon.batches.unused_idx) if fn_losses else []
        if not self.lagged:
            self._write(p)
        else:
            prev, self._pending = self._pending, p
            if prev is not None:
                self._write(prev)  # its bundle uses the weights kept at its boundary, so before:
            mon.guard("bundle", mon.capture.keep_state, p.step)
        mon.guard("snapshot", mon.capture.maybe_snapshot, p.step)

    def drain(self, final: bool = True) -> None:
        """At close: the lagged step not read yet, then what is still deferred. ``final=False``
        (a diagnosis mid-run: W&B's finish) keeps the multi-label counts going: their summary
        is written once, at close."""
        p, self._pending = self._pending, None
        if p is not None:
            self._write(p)
        lf = self.mon.loss_fns
        if lf.label_counts is not None:
            lf.defer_labels()
        if final:
            lf.multi.summary()
        if self._deferred:
            ds, self._deferred = self._deferred, []
            self._write_deferred(ds, Transfer([t for d in ds for t in d[2]]).values())
        if final:  # after its deferred rows (the monitor is closing: no guard, the same care)
            try:
                self.mon.conflicts.summary()
            except Exception as exc:  # noqa: BLE001 - never reaches the user's script
                self.mon._record_error("label-groups", exc)

    # ------------------------------------------------------------------ the floats are read
    def _write(self, p: _Pending) -> None:
        """The writes, the anomaly events and the triggers of step ``p.step``."""
        mon = self.mon
        flat = p.transfer.values()  # sync: the step's one sync; lagged: the device is past it
        values = dict(zip(p.names, flat[: p.k]))
        self._write_deferred(p.deferred, flat[p.k :])
        values.update(p.lrs)
        if p.norms:
            self._grad_totals(values, p.params, p.gkeys)
        if p.skipped:
            values["scaler/skipped"] = 1.0
        if p.step_time is not None:
            values["time/step"] = p.step_time
            values["time/data"] = p.data_time
        if p.sampled:
            values["sampled"] = 1.0
        if p.eval_names:
            # evaluation ran after the previous step: it describes the model after it
            mon.writer.scalars(p.step - 1, {n: values.pop(n) for n in p.eval_names})
        fn_vals = [values.pop(f"_fn_loss/{i}") for i in range(p.n_fn)]
        mon.loss_fns.note_skipped(values, fn_vals, p.step, p.unused if self.lagged else None)
        if "loss" in values:
            values.update(mon.loss_fns.classification_loss(p.fn_names, fn_vals))
        mon.writer.scalars(p.step, values)
        if p.indices is not None:
            mon.writer.indices(p.step, p.indices)
        self._check_anomaly(p.step, values)
        # triggers on the host floats above (no sync); sync: the bundle is written before the
        # step's optimizer.step, lagged: from the weights kept at its boundary
        trig = values if "loss/skipped" not in values else {**values, "loss": values["loss/skipped"]}
        if not mon.closed:
            mon.guard("bundle", mon.capture.check, p.step, trig, bool(p.skipped))
            return
        from .capture import StopTraining

        try:  # the last lagged step, read at close (guard() skips once closed)
            mon.capture.check(p.step, trig, bool(p.skipped))
        except StopTraining:
            pass  # --stop-on: the bundle is written and the run is ending anyway
        except Exception as exc:  # noqa: BLE001 - the run is recorded; the bundle is extra
            mon._record_error("bundle", exc)

    def _write_deferred(self, ds: list[Deferred], flat: list[float]) -> None:
        pos = 0
        for step, names, ts, post in ds:
            n = sum(t.numel() for t in ts)
            vals = flat[pos : pos + n]
            pos += n
            if post is None:
                self.mon.writer.scalars(step, dict(zip(names, vals)))
            else:
                try:  # not through guard(): at close the monitor is already closed
                    post(step, vals)
                except Exception as exc:  # noqa: BLE001 - never reaches the user's loop
                    self.mon._record_error("deferred", exc)

    def _grad_totals(self, values: dict[str, float], params: list[torch.Tensor], keys: list[str]) -> None:
        """The global gradient norm and the count of non-finite ones, from the per-parameter
        norms (``keys``: their series names)."""
        g = [values[n] for n in keys]
        if math.inf in g and not self.lagged:
            for p, n in zip(params, keys):
                if values[n] == math.inf:
                    # float32 overflows once |g| passes ~1e19 (the sum of squares passes 3.4e38):
                    # recompute in float64 (exact for any finite float32/16 gradient) so a finite
                    # gradient is never counted as non-finite. Rare; a sync and a read of p.grad.
                    # (Lagged reads come a step late, when p.grad holds the next step's gradient:
                    # there such a norm stays inf and counts as non-finite.)
                    grad = self.mon.backward.grad_of(p)
                    values[n] = float(torch.linalg.vector_norm(grad.detach().double()))
            g = [values[n] for n in keys]
        bad = sum(1 for x in g if not math.isfinite(x))
        values["grad_norm"] = math.sqrt(sum(x * x for x in g)) if not bad else float("nan")
        values["grad_nonfinite"] = float(bad)
        if not self.mon.per_param:
            for n in keys:
                del values[n]

    def _check_anomaly(self, step: int, values: dict[str, float]) -> None:
        mon = self.mon
        loss = values.get("loss")
        bad_loss = loss is not None and not math.isfinite(loss)
        bad_grad = values.get("grad_nonfinite", 0.0) > 0
        if (bad_loss or bad_grad) and not values.get("scaler/skipped"):
            self._anomalies += 1
            if self._anomalies <= 20:
                what = "loss" if bad_loss else "gradient"
                mon.writer.event(step, "anomaly", f"non-finite {what} at step {step}",
                                 {"loss": loss, "grad_nonfinite": values.get("grad_nonfinite")})
            if self._anomalies <= 3:  # a run that keeps training on NaN is not sampled at every step
                # the three steps after it (lagged: step + 1 has begun, unsampled)
                mon.sampler.force(step + 3 + (1 if self.lagged else 0))
