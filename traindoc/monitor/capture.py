"""Triggers and bundles: what the monitor keeps so that a bad step can be replayed.

Triggers (``Capture.check``), evaluated on the host floats the monitor's one sync per step
already produced, so they add no sync and fire at the step itself (zero steps late):

- ``loss-nonfinite`` / ``grad-nonfinite``: the step's loss or a gradient is NaN/Inf;
- ``loss-spike`` / ``grad-spike``: the value is above ``median + 6 * 1.4826 * MAD`` of the
  last ``window`` finite values (in log space for positive series) *and* 2x (gradient
  norm: 3x) the median: robust to the normal noise of healthy runs (both must hold; see
  the property tests in tests/forensics/test_capture.py). Cost: a median of 200 floats.

Per step (cheap): references to the batches the DataLoader gave the training loop (no
copy) and the RNG states at the moment each batch was handed over (``torch`` CPU generator:
a 5 KB copy; CUDA: each device's seed and offset, no sync). Every
``snapshot_every`` steps (0: never) the parameters and buffers before the step are copied
into one of two rotating buffers (same device on CPU; pinned host memory with
``non_blocking`` copies on CUDA, so no sync): the "earlier state" of the bad-data/bad-state
triage. Memory: 2x the model's parameters+buffers; cost: one copy every N steps.

On a trigger the bundle is written before ``optimizer.step`` runs (the live parameters are
the state the step's forward used) into ``RUN/bundles/step-NNNNNN-rR`` through a temporary
folder and one rename (atomic): ``meta.json`` and tensor files read back with
``torch.load(weights_only=True)`` (no pickle of code). See :mod:`traindoc.forensics.bundle`.
"""

from __future__ import annotations

import math
import os
import sys
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import torch


class StopTraining(BaseException):
    """Raised into the training loop (``traindoc run --stop-on``) once the bundle of a bad
    step is written, before ``optimizer.step``: the run ends there instead of burning
    compute on NaN. A BaseException, so the script's ``except Exception`` lets it through."""

    def __init__(self, step: int, kind: str, why: str = "--stop-on") -> None:
        super().__init__(f"traindoc stopped the run at step {step}: {kind} ({why})")
        self.step, self.kind = step, kind


class Band:
    """Robust upper band over a window of recent finite values: median + k * 1.4826 * MAD,
    in log space while the values are positive (batch losses and gradient norms are
    roughly lognormal: scale-free), else in linear space; and at least ``ratio`` x median."""

    def __init__(self, window: int = 200, k: float = 6.0, ratio: float = 2.0, min_count: int = 30,
                 every: int = 8) -> None:
        self.values: deque[float] = deque(maxlen=window)
        self.k, self.ratio, self.min_count, self.every = k, ratio, min_count, every
        self._lim: float | None = None
        self._age = 0

    def limit(self) -> float | None:
        """The band; recomputed every ``every`` values (it moves slowly): ~60 us, else ~1 us."""
        if self._lim is None or self._age >= self.every:
            self._lim, self._age = self._compute(), 0
        return self._lim

    def _compute(self) -> float | None:
        if len(self.values) < self.min_count:
            return None
        a = np.fromiter(self.values, dtype=np.float64, count=len(self.values))
        pos = bool((a > 0).all())
        v = np.log(a) if pos else a
        med = _median(v)
        mad = _median(np.abs(v - med)) * 1.4826
        # A MAD from n values estimates the noise scale with a relative error of about
        # 1.17/sqrt(n) (normal data): from 30-50 values it can be 30 % low, and a 4-sigma
        # batch then crossed the band. Widen k by one such error (x1.21 at n=30, x1.08 at
        # 200): on 1 500 lognormal runs (sigma 0.1-0.4) 1 false fire became 0, and 500
        # spikes of 8x were all still caught at their step.
        k = self.k * (1 + 1.17 / math.sqrt(len(a)))
        if pos:
            return max(float(np.exp(med + k * max(mad, 0.01))), self.ratio * float(np.exp(med)))
        lim = med + k * max(mad, 1e-12 + 1e-3 * abs(med))
        return max(lim, self.ratio * med) if med > 0 else lim

    def push(self, x: float) -> tuple[bool, float | None]:
        """Add ``x``; True when it is above the band of the values before it."""
        if not math.isfinite(x):
            return False, None
        lim = self.limit()
        spike = lim is not None and x > lim
        if not spike:  # a spike does not widen the band it is judged against
            self.values.append(x)
            self._age += 1
        return spike, lim


def _median(v: np.ndarray) -> float:
    """``float(np.median(v))`` of finite values, the same float (the middle value, or the two
    middle ones added and halved, as np.median's mean of them does) without np.median's
    checks: two of them every 8 steps per band were most of the band's ~60 us."""
    h = len(v) // 2
    if len(v) % 2:
        return float(np.partition(v, h)[h])
    p = np.partition(v, (h - 1, h))
    return float((p[h - 1] + p[h]) / 2)


def tensor_versions(batch: Any, limit: int = 64) -> list[int]:
    """The version counters of a batch's tensors (depth-first, up to ``limit``): every
    in-place op on a tensor bumps its counter, so a batch the loop normalised in place
    after the DataLoader gave it (``x.sub_(mean)``) is told apart at bundle time, at the
    cost of reading an int per tensor."""
    out: list[int] = []
    stack = [batch]
    while stack and len(out) < limit:
        x = stack.pop()
        if isinstance(x, torch.Tensor):
            out.append(int(x._version))
        elif isinstance(x, (list, tuple)):
            stack.extend(reversed(x))
        elif isinstance(x, dict):
            stack.extend(reversed(list(x.values())))
    return out


def _rng_state() -> dict[str, Any]:
    """The generators the step's forward and backward can draw from (dropout): torch's CPU
    generator (a 5 KB copy, ~1 us) and each CUDA device's seed and offset (no sync).
    NumPy's and ``random``'s states are not taken on the hot path (``np.random.get_state``
    costs ~50-150 us): they drive data loading, which a replay does not redo."""
    st: dict[str, Any] = {"torch": torch.get_rng_state()}
    if torch.cuda.is_initialized():  # (initialised implies available; is_available() costs a call into CUDA)
        st["cuda"] = torch.cuda.get_rng_state_all()
    return st


class Capture:
    """Owned by the monitor. Every method is called through ``Monitor.guard``."""

    def __init__(self, mon: Any, snapshot_every: int = 100, max_bundles: int = 3,
                 spike_window: int = 200, enabled: bool = True) -> None:
        self.mon = mon
        env = os.environ.get("TRAINDOC_SNAPSHOT_EVERY")
        self.snapshot_every = int(env) if env is not None else snapshot_every
        self.max_bundles = max_bundles
        self.enabled = enabled and os.environ.get("TRAINDOC_BUNDLES", "1") != "0"
        self.loss_band = Band(spike_window, k=6.0, ratio=2.0)
        self.grad_band = Band(spike_window, k=6.0, ratio=3.0)
        self.cur: list[tuple[Any, np.ndarray | None, dict[str, Any]]] = []  # (batch, indices, rng)
        self.prev: list[tuple[Any, np.ndarray | None, dict[str, Any]]] = []
        self.prev_step: int | None = None
        # lagged reads (record.py): a bundle is written a step late, so the batches of one
        # more step and the weights at the last boundary are kept
        self.prev2: list[tuple[Any, np.ndarray | None, dict[str, Any]]] = []
        self.prev2_step: int | None = None
        self._kept: dict[str, torch.Tensor] = {}
        self._kept_step: int | None = None
        self._snaps: list[dict[str, Any]] = []  # up to two: {"step", "tensors": {name: tensor}}
        self.bundles: list[Path] = []
        self._nonfinite_done = False
        self._cool_until = -1
        self._sha256: str | None = None  # of the script, taken by the first command()
        self._snap_ok: bool | None = None  # rolling snapshots fit in memory (decided once)

    # ---------------------------------------------------------------- every step
    def record(self, batch: Any, idx: np.ndarray | None) -> tuple | None:
        """At hand-over: the batch (a reference), its indices, the RNG state and its tensors'
        versions (an in-place change after hand-over shows at bundle time)."""
        if not self.enabled:
            return None
        st = _rng_state()
        st["versions"] = tensor_versions(batch)
        return (batch, idx, st)

    def use(self, rec: tuple | None, rng_from: tuple | None = None) -> None:
        """The recorded batch belongs to the current step (``rng_from``: the record whose
        RNG state the forward started from, when a prefetcher drew ahead)."""
        if rec is None:
            return
        if rng_from is not None and rng_from is not rec:
            st = dict(rec[2])
            st.update({k: v for k, v in rng_from[2].items() if k != "versions"})
            rec = (rec[0], rec[1], st)
        if len(self.cur) >= 64:  # many batches without an optimizer step: keep the last 64
            del self.cur[0]
        self.cur.append(rec)

    def end_step(self, step: int) -> None:
        if self.mon.recorder.lagged:
            self.prev2, self.prev2_step = self.prev, self.prev_step
        self.prev, self.prev_step, self.cur = self.cur, step, []

    def release(self) -> None:
        """At close: drop the batch references and the kept weights (device memory)."""
        self.cur, self.prev, self.prev2 = [], [], []
        self._kept, self._kept_step = {}, None

    def state_bytes(self) -> int:
        """The bytes of the watched models' parameters and buffers (one copy)."""
        return sum(t.numel() * t.element_size() for _, m in self.mon.live_roots() for t in m.state_dict().values())

    def keep_state(self, step: int) -> None:
        """Lagged reads: the weights step ``step``'s forward used, copied at its boundary
        (before ``optimizer.step``) into buffers on the same device, so that a trigger read a
        step later bundles them. Device to device: no sync; memory one copy of the
        parameters and buffers; cost a ``state_dict()`` walk (~0.2 ms for 150 tensors) and
        one fused copy per step. Not once no bundle can be written any more."""
        if not self.enabled or (self._nonfinite_done and len(self.bundles) >= self.max_bundles):
            self._kept, self._kept_step = {}, None
            return
        src, dst = [], []
        for prefix, m in self.mon.live_roots():
            for name, t in m.state_dict(keep_vars=True).items():
                t = t.detach()
                key = prefix + name
                b = self._kept.get(key)
                if b is None or b.shape != t.shape or b.dtype != t.dtype or b.device != t.device:
                    b = self._kept[key] = torch.empty_like(t)
                src.append(t)
                dst.append(b)
        if src:
            torch._foreach_copy_(dst, src)
        self._kept_step = step

    def bundle_view(self, step: int) -> dict[str, Any]:
        """What the bundle of ``step`` holds: its batches, the step before's, the weights its
        forward used (live before ``optimizer.step``; under lagged reads, the kept copy)."""
        if self.mon.recorder.lagged and self.prev_step == step:
            state = self._kept if self._kept_step == step else None
            return {"cur": self.prev, "prev": self.prev2, "prev_step": self.prev2_step, "state": state,
                    "lagged": True}
        return {"cur": self.cur, "prev": self.prev, "prev_step": self.prev_step, "state": None, "lagged": False}

    def maybe_snapshot(self, step: int) -> None:
        if not self.enabled or self.snapshot_every <= 0 or step % self.snapshot_every:
            return
        roots = self.mon.live_roots()
        if not roots:
            return
        if not self._snapshot_fits():
            return
        # reuse the older of the two buffers: the newer one stays the "earlier state"
        slot = self._snaps.pop(0) if len(self._snaps) == 2 else {"step": None, "tensors": {}}
        bufs = slot["tensors"]
        for prefix, m in roots:
            for name, t in list(m.state_dict(keep_vars=True).items()):
                key = prefix + name
                t = t.detach()
                b = bufs.get(key)
                if b is None or b.shape != t.shape or b.dtype != t.dtype:
                    b = (torch.empty(t.shape, dtype=t.dtype, pin_memory=True) if t.is_cuda
                         else torch.empty_like(t))
                    bufs[key] = b
                b.copy_(t, non_blocking=True)  # CUDA -> pinned host: asynchronous, no sync
        slot["step"] = step
        self._snaps.append(slot)

    def _snapshot_fits(self) -> bool:
        """Two host copies of the weights must fit in ``TRAINDOC_SNAPSHOT_MAX_FRACTION``
        (default 0.1) of the host's memory: a 7B-parameter model in float32 would need
        56 GB. Decided once, at the first snapshot; when it does not fit, the rolling
        snapshot is off (the triage then skips "the same batch from an earlier state")
        and the run's meta says why."""
        if self._snap_ok is None:
            need = 2 * self.state_bytes()
            frac = float(os.environ.get("TRAINDOC_SNAPSHOT_MAX_FRACTION", "0.1"))
            try:
                host = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            except (ValueError, OSError, AttributeError):
                host = None
            self._snap_ok = host is None or need <= frac * host
            info = {"every": self.snapshot_every, "bytes": need, "enabled": self._snap_ok}
            if not self._snap_ok:
                info["reason"] = (f"two copies of the weights ({need / 2**30:.1f} GiB) exceed "
                                  f"{frac:.0%} of host memory ({host / 2**30:.0f} GiB)")
            self.mon.writer.meta("snapshot", info)
        return self._snap_ok

    # ---------------------------------------------------------------- triggers
    def check(self, step: int, values: dict[str, float], skipped: bool) -> None:
        if not self.enabled or skipped:
            return
        loss = values.get("loss")
        gn = values.get("grad_norm")
        trig = None
        if loss is not None and not math.isfinite(loss):
            trig = {"kind": "loss-nonfinite", "series": "loss", "value": loss}
        elif values.get("grad_nonfinite", 0.0) > 0:
            trig = {"kind": "grad-nonfinite", "series": "grad_norm", "value": gn,
                    "params_nonfinite": values.get("grad_nonfinite")}
        spike_l, lim_l = self.loss_band.push(loss) if loss is not None else (False, None)
        spike_g, lim_g = self.grad_band.push(gn) if gn is not None else (False, None)
        if trig is None and step > self._cool_until:
            if spike_l:
                trig = {"kind": "loss-spike", "series": "loss", "value": loss, "limit": lim_l,
                        "median": float(np.median(list(self.loss_band.values)))}
            elif spike_g:
                trig = {"kind": "grad-spike", "series": "grad_norm", "value": gn, "limit": lim_g,
                        "median": float(np.median(list(self.grad_band.values)))}
        if trig is None:
            return
        nonfinite = trig["kind"].endswith("nonfinite")
        if nonfinite:
            if self._nonfinite_done:
                return
            self._nonfinite_done = True
        else:
            self._cool_until = step + self.loss_band.values.maxlen // 4
            if len(self.bundles) >= self.max_bundles - (0 if self._nonfinite_done else 1):
                return  # keep one slot for the first non-finite step
        self.mon.writer.event(step, "trigger", f"{trig['kind']} at step {step}", trig)
        from ..forensics.bundle import write_bundle

        path = write_bundle(self, step, trig)
        if path is not None:
            self.bundles.append(path)
            self.mon.writer.event(step, "bundle", f"bundle for step {step}: {path}", {"path": str(path)})
        stop_on = getattr(self.mon, "stop_on", ())
        if ("nonfinite" in stop_on and nonfinite) or ("spike" in stop_on and not nonfinite):
            self.mon.writer.event(step, "stopped", f"traindoc stopped the run at step {step} ({trig['kind']})", trig)
            raise StopTraining(step, trig["kind"])

    def end_of_run(self, status: str, exit_code: int | None, error: str | None) -> None:
        """The script stopped between drawing a batch and the optimizer step (it checked the
        loss or the gradients and exited or raised): bundle that step too, since the monitor
        never saw it end. Called by ``Monitor.close`` only; a normal end bundles nothing."""
        if not self.enabled or not self.cur or exit_code in (0, None) or status not in ("exited", "crashed"):
            return
        if self._nonfinite_done:
            return
        last = (error or "").strip().splitlines()[-1:] or [""]
        trig = {"kind": "ended-mid-step", "status": status, "exit_code": exit_code, "error": last[0][:300]}
        self.mon.writer.event(self.mon.step, "trigger", f"the script stopped during step {self.mon.step}", trig)
        from ..forensics.bundle import write_bundle

        path = write_bundle(self, self.mon.step, trig)
        if path is not None:
            self._nonfinite_done = True
            self.bundles.insert(0, path)

    def worth_replaying(self) -> Path | None:
        """The bundle ``traindoc run`` replays (see :func:`traindoc.forensics.bundle.worth_replaying`)."""
        from ..forensics.bundle import worth_replaying

        return worth_replaying(self.bundles)

    # ---------------------------------------------------------------- what a bundle needs
    def command(self) -> dict[str, Any]:
        """How to re-run the script: from ``traindoc run``'s command, else ``sys.argv``."""
        cmd = list(self.mon.command or [])
        module = False
        if len(cmd) >= 3 and cmd[0] == "traindoc" and cmd[1] == "run":
            rest, script, args = cmd[2:], "", []
            while rest:  # traindoc run's own options come before SCRIPT
                tok = rest.pop(0)
                if tok == "-m":
                    module = True
                elif tok in ("--out", "--sample-every", "--stop-on", "--reads"):
                    rest = rest[1:]
                elif tok == "--no-writeback":
                    continue
                elif not tok.startswith(("--out=", "--sample-every=", "--stop-on=", "--reads=")):
                    script, args = tok, rest
                    break
        else:
            script, args = (sys.argv[0] if sys.argv else ""), list(sys.argv[1:])
        out = {"script": script, "module": module, "args": args, "cwd": os.getcwd(),
               "via": "traindoc run" if cmd[:2] == ["traindoc", "run"] else "watch"}
        if self._sha256 is None and script:  # once, at the start: the replay refuses a changed script
            from ..forensics.isolate import fingerprint, script_file
            from ..errors import UserError

            try:
                self._sha256 = fingerprint(script_file(out)) or ""
            except UserError:
                self._sha256 = ""
        out["sha256"] = self._sha256 or None
        return out

    def earlier_state(self, step: int) -> dict[str, Any] | None:
        old = [s for s in self._snaps if s["step"] is not None and s["step"] < step]
        if not old:
            return None
        s = max(old, key=lambda s: s["step"])
        if any(t.is_pinned() for t in s["tensors"].values()):
            torch.cuda.synchronize()  # trigger only: finish the asynchronous copies
        return s
