"""The step's record: what the measurements collected for one step, through the one
gather (the step's only device-to-host sync), into the run store; the anomaly events
and the triggers of a bundle on the host floats; the records deferred to the next sync
(a second optimizer's, a loss function's target range)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from .quantities import gather


class Recorder:
    """Owned by the monitor; called by the measurement that ends a step (``Optimizers``,
    ``BackwardClock``)."""

    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self._t_last: float | None = None
        self._deferred: list[tuple[int, list[str], list[torch.Tensor]]] = []  # written at the next sync
        self._anomalies = 0

    def defer(self, step: int, names: list[str], tensors: list[torch.Tensor]) -> None:
        """Values of ``step`` written at the next sync (no sync of their own)."""
        self._deferred.append((step, names, tensors))

    def finish(self, names: list[str], tensors: list[torch.Tensor], lrs: dict[str, float],
               params: list[torch.Tensor], pnames: list[str], norms: list[torch.Tensor],
               skipped: bool = False) -> None:
        """The primary step's record: the one gather, the writes, the triggers (and the
        bundle, written before the parameters change)."""
        mon = self.mon
        rec = mon.rec
        now = mon.timer()
        step_time = None if self._t_last is None else now - self._t_last
        self._t_last = now
        if step_time is not None and not rec.sampled:
            mon.sampler.observe(step_time, None)
        if rec.act_vals:
            names.extend(rec.act_names)
            tensors.append(torch.stack([v.float().reshape(()) for v in rec.act_vals]))
        eval_names = mon.loss_fns.eval_tensors(names, tensors)
        fn_losses = mon.loss_fns.take_fn_losses()
        if fn_losses:  # losses the loss functions computed this step (some perhaps never backpropagated)
            names.extend(f"_fn_loss/{i}" for i in range(len(fn_losses)))
            tensors.append(torch.stack([x.to(fn_losses[0].device).float() for x in fn_losses]))
        flat = gather(tensors)  # note: the one CPU-GPU sync of the step
        values = dict(zip(names, flat))
        self.flush_deferred()
        values.update(lrs)
        if norms:
            self._grad_totals(values, params, pnames)
        if skipped:
            values["scaler/skipped"] = 1.0
        if step_time is not None:
            values["time/step"] = step_time
            values["time/data"] = rec.data_time
        if rec.sampled:
            values["sampled"] = 1.0
        if eval_names:
            # evaluation ran after the previous step: it describes the model after it
            mon.writer.scalars(mon.step - 1, {n: values.pop(n) for n in eval_names})
        fn_vals = [values.pop(f"_fn_loss/{i}") for i in range(len(fn_losses))]
        mon.loss_fns.note_skipped(values, fn_vals)
        if "loss" in values:
            values.update(mon.loss_fns.classification_loss(mon.loss_fns.taken_names, fn_vals))
        mon.writer.scalars(mon.step, values)
        if rec.indices:
            mon.writer.indices(mon.step, np.concatenate(rec.indices))
        self._check_anomaly(values)
        # triggers on the host floats above (no sync); a bundle is written before the step
        trig = values if "loss/skipped" not in values else {**values, "loss": values["loss/skipped"]}
        mon.guard("bundle", mon.capture.check, mon.step, trig, bool(skipped))
        mon.guard("snapshot", mon.capture.maybe_snapshot, mon.step)

    def _grad_totals(self, values: dict[str, float], params: list[torch.Tensor], pnames: list[str]) -> None:
        """The global gradient norm and the count of non-finite ones, from the per-parameter norms."""
        for p, n in zip(params, pnames):
            if values[f"grad_norm/{n}"] == math.inf:
                # float32 overflows once |g| passes ~1e19 (the sum of squares passes 3.4e38):
                # recompute in float64 (exact for any finite float32/16 gradient) so a finite
                # gradient is never counted as non-finite. Rare; a sync and a read of p.grad.
                g = self.mon.backward.grad_of(p)
                values[f"grad_norm/{n}"] = float(torch.linalg.vector_norm(g.detach().double()))
        g = [values[f"grad_norm/{n}"] for n in pnames]
        bad = sum(1 for x in g if not math.isfinite(x))
        values["grad_norm"] = math.sqrt(sum(x * x for x in g)) if not bad else float("nan")
        values["grad_nonfinite"] = float(bad)
        if not self.mon.per_param:
            for n in pnames:
                del values[f"grad_norm/{n}"]

    def _check_anomaly(self, values: dict[str, float]) -> None:
        mon = self.mon
        loss = values.get("loss")
        bad_loss = loss is not None and not math.isfinite(loss)
        bad_grad = values.get("grad_nonfinite", 0.0) > 0
        if (bad_loss or bad_grad) and not values.get("scaler/skipped"):
            self._anomalies += 1
            if self._anomalies <= 20:
                what = "loss" if bad_loss else "gradient"
                mon.writer.event(mon.step, "anomaly", f"non-finite {what} at step {mon.step}",
                                 {"loss": loss, "grad_nonfinite": values.get("grad_nonfinite")})
            if self._anomalies <= 3:  # a run that keeps training on NaN is not sampled at every step
                mon.sampler.force(mon.step + 3)

    def flush_deferred(self) -> None:
        mon = self.mon
        if not self._deferred and mon.loss_fns.label_counts is None:
            return
        tensors = [t for _, _, ts in self._deferred for t in ts]
        flat = gather(tensors)
        pos = 0
        for step, names, ts in self._deferred:
            n = sum(t.numel() for t in ts)
            mon.writer.scalars(step, dict(zip(names, flat[pos : pos + n])))
            pos += n
        self._deferred = []
        if mon.loss_fns.label_counts is not None and (mon.rec.sampled or mon.closed):
            mon.loss_fns.flush_labels()
