"""The batches: what the DataLoader hands out (its draws, a prefetcher's lag, the dataset
indices of the batch each backward computed on), and in a loop with no DataLoader the
model's own inputs. References only: the bundle copies them on a trigger."""

from __future__ import annotations

import weakref
from collections import deque
from typing import Any

import numpy as np
import torch
from torch.utils.data import Dataset

from .models import note_input_absmax
from .splits import shared_rows


class _Draw:
    """One batch the DataLoader handed out: its iterator, dataset indices and capture record."""

    __slots__ = ("it", "idx", "rec", "used")

    def __init__(self, it: int, idx: np.ndarray | None, rec: Any) -> None:
        self.it, self.idx, self.rec, self.used = it, idx, rec, False


class Batches:
    """Owned by the monitor; each hook entry point is called through ``Monitor.guard``."""

    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self._draws: deque = deque(maxlen=64)  # batches handed out (None: an epoch's end), see assign
        self.lag: int | None = None  # draws a prefetching loader makes ahead of the batch in use
        self.loader_used = False  # a DataLoader fed training: batches are captured there, not at forward
        self._loaders_seen = _ByObject()  # loader number, by dataset (see _loader_key)
        self._loader_info = _ByObject()
        self.train_loader: dict[str, Any] | None = None  # the training loader's description (bundles)
        self._eval_loaders = _ByObject()  # series name, by dataset
        self.eval_loader: str = "loss/eval"  # the series the current evaluation pass writes to
        self._unused_idx: list[np.ndarray] = []  # indices of batches drawn but never backpropagated
        self._train_ds: Any = None  # a weak reference to the training loader's dataset (split check)
        self._eval_ds: list[tuple[Any, str]] = []  # weak references to evaluation datasets, their series
        self._checked: set[tuple[int, int]] = set()  # (training, evaluation) dataset ids already checked

    @property
    def unused_idx(self) -> list[np.ndarray]:
        return self._unused_idx

    def take_unused_indices(self, arrays: list[np.ndarray] | None = None) -> list[int]:
        """The dataset indices of batches drawn and never backpropagated (up to 4096), once
        (``arrays``: those noted at a step's boundary, for a read one step later)."""
        src = self._unused_idx if arrays is None else arrays
        idx = [int(i) for a in src for i in a.tolist()][:4096]
        if arrays is None:
            self._unused_idx = []
        else:
            self._unused_idx = [a for a in self._unused_idx if not any(a is b for b in arrays)]
        return idx

    def _describe_loader(self, it: Any, key: Any) -> None:
        self._loaders_seen.set(key, len(self._loaders_seen))
        ds = getattr(it, "_dataset", None)
        info: dict[str, Any] = {"dataset": type(ds).__name__, "num_workers": getattr(it, "_num_workers", None),
                                "pin_memory": getattr(it, "_pin_memory", None)}
        try:
            info["length"] = len(ds)  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - iterable datasets have no length
            info["length"] = None
        bs = getattr(it, "_index_sampler", None)
        sampler = getattr(bs, "sampler", bs)  # (a BatchSampler wraps the sampler that picks rows)
        if sampler is not None:
            # rows drawn with replacement or by weight repeat by design (data-duplicates)
            info["sampler"] = type(sampler).__name__
            info["replacement"] = getattr(sampler, "replacement", None)
        self.mon.writer.meta(f"loader/{len(self._loaders_seen) - 1}", info)
        info["batch_size"] = getattr(bs, "batch_size", None)
        self._loader_info.set(key, info)

    def on_batch(self, it: Any, batch: Any, idx: Any, dt: float) -> None:
        key = _loader_key(it)
        if self._loaders_seen.get(key) is None:
            self._describe_loader(it, key)
        if not torch.is_grad_enabled():  # an evaluation loop: not part of the training step
            name = self._eval_loaders.get(key)
            if name is None:  # one series per evaluation dataset (train/val splits apart)
                k = len(self._eval_loaders)
                name = "loss/eval" if k == 0 else f"loss/eval{k}"
                self._eval_loaders.set(key, name)
                self.mon.writer.meta(f"eval_loader/{name}", self._loader_info.get(key) or {})
                self._eval_ds.append((_weak(key), name))
                self._check_split(_deref(self._train_ds), key, name)
            self.eval_loader = name
            return
        self.mon.rec.data_time += dt
        self.loader_used = True
        arr = None
        if idx is not None:
            arr = np.asarray(idx if isinstance(idx, (list, tuple)) else [idx])
            arr = arr.astype(np.int64, copy=False) if arr.dtype.kind in "iu" else None
        self.train_loader = self._loader_info.get(key)
        if _deref(self._train_ds) is not key:
            self._train_ds = _weak(key)
            for ref, name in self._eval_ds:
                self._check_split(key, _deref(ref), name)
        # references, RNG state and tensor versions at hand-over, no copy; which step the
        # batch belongs to is decided at the backward it reaches (see assign)
        self._draws.append(_Draw(id(it), arr, self.mon.capture.record(batch, arr)))

    def _check_split(self, train: Any, evaluation: Any, name: str) -> None:
        """Once per (training, evaluation) dataset pair: rows they share (see splits)."""
        if train is None or evaluation is None or not isinstance(train, Dataset):
            return
        pair = (id(train), id(evaluation))
        if pair in self._checked:
            return  # two training loaders drawn in turn (zip) re-enter here every draw
        self._checked.add(pair)
        got = self.mon.guard("split check", shared_rows, train, evaluation)  # (a failure: this check only)
        if got is not None:
            self.mon.writer.event(self.mon.step, "split-overlap",
                                  f"{got['shared']} of the {got['rows']} rows of the evaluation set behind {name} "
                                  f"are training rows ({got['how']})", {**got, "series": name})

    def on_loader_end(self, it: Any) -> None:
        if torch.is_grad_enabled() and (not self._draws or self._draws[-1] is not None):
            self._draws.append(None)  # the iterator is exhausted or restarted: an epoch boundary

    def _read_lag(self) -> None:
        draws = self._draws
        n = 0  # the draws of the current epoch of the latest iterator
        for d in reversed(draws):
            if d is None:
                break
            n += 1
        self.lag = max(0, n - 1)
        if self.lag:
            self.mon.writer.meta("loader_prefetch", {"lag": self.lag,
                                                     "why": f"{n} batches drawn before the first backward"})

    def assign(self, backward: bool = True) -> None:
        """The batch this backward computed on, among those the DataLoader handed out.

        A loop that draws a batch and then computes on it uses the latest draw. A loader
        wrapped by a prefetcher (Hugging Face Accelerate's DataLoaderShard, Lightning's
        fetcher) draws one batch ahead: at every backward the batch in use is the one drawn
        ``lag`` draws before the latest, counting the end of an epoch as a draw (the
        prefetcher's last batch comes with the iterator's end, not a new draw). ``lag`` is
        read once, at the first backward: the draws made by the latest iterator, minus one
        (a batch peeked from another iterator before the loop does not count). Batches
        drawn but never backpropagated (a script that skips a NaN loss) go with the step too:
        their indices as unused, their data into the bundle."""
        draws = self._draws
        if not draws:
            return
        if self.lag is None:
            self._read_lag()
        pos = len(draws) - 1 - self.lag
        while pos > 0 and draws[pos] is None:
            pos -= 1
        if pos >= 0 and draws[pos] is not None and draws[pos].used:
            # Taken already: a loader that fetches a step's micro-batches at once (the HF
            # Trainer under gradient accumulation) hands the next one out in order; else it
            # is a second backward on the same batch (a GAN's two losses, retain_graph).
            later = [i for i in range(pos + 1, len(draws) - self.lag + (1 if self.lag else 0))
                     if draws[i] is not None and not draws[i].used]
            if not later:
                return
            pos = later[0]
        cur = draws[pos] if pos >= 0 else None
        if cur is None or cur.used:
            return
        if not backward:  # the script ends mid-step: the batch in use goes to its bundle
            for d in list(draws)[: pos + 1]:
                if d is not None and not d.used:
                    d.used = True
                    self.mon.capture.use(d.rec)
            return
        self._use(pos, cur)

    def _use(self, pos: int, cur: _Draw) -> None:
        """The draw at ``pos`` is the batch of this backward; the unused ones before it go with the step."""
        draws, capture = self._draws, self.mon.capture
        latest_rec = next((d.rec for d in reversed(draws) if d is not None), None)
        for d in list(draws)[: pos + 1]:
            if d is None or d.used:
                continue
            d.used = True
            if d is not cur:  # drawn, never backpropagated
                if d.idx is not None:
                    self._unused_idx.append(d.idx)
                    del self._unused_idx[:-8]
                capture.use(d.rec)
        if cur.idx is not None:
            self.mon.rec.indices.append(cur.idx)
        # the RNG state the forward started from: the latest draw came right before it
        capture.use(cur.rec, rng_from=latest_rec)
        while len(draws) > 2 * self.lag + 2 and (draws[0] is None or draws[0].used):
            draws.popleft()

    def on_root_forward(self, module: torch.nn.Module, args: tuple, kwargs: dict) -> None:
        """A forward of the model in training, in a loop with no DataLoader (nanoGPT's
        ``get_batch``, a tensor sliced by hand): the step's batch is what reaches the model,
        its arguments, plus the targets the loss functions are then given. References
        only (the bundle copies them on a trigger); up to 8 forwards a step."""
        if not torch.is_grad_enabled():
            self.mon.conflicts.note_eval(args, kwargs)  # an evaluation batch: its rows, for the overlap
            return
        if not module.training:
            return
        rec = self.mon.rec
        rec.train_fwds += 1
        if not rec.sampled and rec.train_fwds == 1:
            note_input_absmax(rec, args)
        self.mon.loss_fns.note_inputs(args, kwargs)
        if self.loader_used or rec.fwd_count >= 8:
            return
        prev = rec.fwd_batch
        if prev is not None and len(prev["args"]) == len(args) and all(a is b for a, b in zip(prev["args"], args)):
            return  # the same call seen twice (the discovery call and the model's own hook)
        rec.fwd_count += 1
        batch = {"args": list(args), "kwargs": dict(kwargs), "targets": []}
        crec = self.mon.capture.record(batch, None)
        if crec is not None:
            crec[2]["group"] = rec.fwd_group  # a siamese/contrastive step: several forwards, one backward
        rec.fwd_batch = batch
        self.mon.capture.use(crec)


def _weak(obj: Any) -> Any:
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


def _deref(ref: Any) -> Any:
    return ref() if ref is not None else None


def _loader_key(it: Any) -> Any:
    """What identifies a loader across epochs: its dataset (each epoch makes a new iterator,
    and a loader built inside the epoch loop is new each epoch too), else its sampler."""
    for attr in ("_dataset", "_index_sampler"):
        obj = getattr(it, attr, None)
        if obj is not None:
            return obj
    return it


class _ByObject:
    """A map keyed by object identity that a freed object's reused id() cannot hit (a weak
    reference checks it; objects that take none are held)."""

    def __init__(self) -> None:
        self._d: dict[int, tuple[Any, Any]] = {}

    def __len__(self) -> int:
        return len(self._d)

    def get(self, obj: Any) -> Any:
        ref, value = self._d.get(id(obj), (None, None))
        held = ref() if isinstance(ref, weakref.ref) else ref
        return value if held is obj else None

    def set(self, obj: Any, value: Any) -> None:
        try:
            ref: Any = weakref.ref(obj)
        except TypeError:
            ref = obj
        self._d[id(obj)] = (ref, value)

