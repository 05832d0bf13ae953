"""The bundle: one bad step, stored so that it can be replayed, and opened without running code.

Layout of ``RUN/bundles/step-NNNNNN-rR/`` (written to ``.tmp-*`` then renamed: atomic):

- ``meta.json``: step, rank, trigger, how to re-run the script (script, args, cwd),
  the structure of each batch (JSON), dataset indices, the previous step's indices, the
  root models' classes and parameter names, GradScaler scale, autocast state at the step
  boundary, versions;
- ``batch.pt``: the step's batches as the DataLoader gave them to the loop (tensor leaves);
  ``prev_batch.pt``: the previous step's (the "another batch" of the triage);
- ``model.pt``: parameters and buffers before the step; ``earlier.pt``: the last rolling
  snapshot before it (when ``snapshot_every`` > 0); ``optim.pt``: optimizer state dicts;
- ``rng.pt``: torch's CPU and CUDA generator states when each batch was handed over.

Every ``.pt`` holds only tensors, numbers, strings, lists and dicts and is read back with
``torch.load(weights_only=True)``: opening a bundle runs no code from it.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..errors import UserError
from ..findings import jsonable
from .isolate import origin, read_meta

FORMAT = 1


class Unsupported(TypeError):
    """A batch holds a type we cannot store as tensors + JSON (namedtuple, custom class)."""


# ---------------------------------------------------------------- batch structure <-> JSON
def flatten(obj: Any, leaves: list[torch.Tensor]) -> Any:
    """JSON spec of ``obj``; its tensors (CPU copies) go to ``leaves``."""
    if isinstance(obj, torch.Tensor):
        leaves.append(obj.detach().to("cpu", copy=True))
        return {"t": len(leaves) - 1}
    if isinstance(obj, np.ndarray):
        if obj.dtype == object:
            raise Unsupported("object array")
        leaves.append(torch.from_numpy(np.ascontiguousarray(obj).copy()))
        return {"np": len(leaves) - 1}
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return {"v": jsonable(obj) if isinstance(obj, float) else obj, "type": type(obj).__name__}
    if isinstance(obj, tuple) and not hasattr(obj, "_fields") and type(obj) is tuple:
        return {"tuple": [flatten(x, leaves) for x in obj]}
    if type(obj) is list:
        return {"list": [flatten(x, leaves) for x in obj]}
    if type(obj) is dict and all(isinstance(k, str) for k in obj):
        return {"dict": [[k, flatten(v, leaves)] for k, v in obj.items()]}
    raise Unsupported(type(obj).__name__)


def unflatten(spec: Any, leaves: list[torch.Tensor]) -> Any:
    if "t" in spec:
        return leaves[spec["t"]].clone()
    if "np" in spec:
        return leaves[spec["np"]].numpy().copy()
    if "v" in spec:
        v = spec["v"]
        return float(v) if spec.get("type") == "float" else v
    if "tuple" in spec:
        return tuple(unflatten(s, leaves) for s in spec["tuple"])
    if "list" in spec:
        return [unflatten(s, leaves) for s in spec["list"]]
    if "dict" in spec:
        return {k: unflatten(s, leaves) for k, s in spec["dict"]}
    raise UserError(f"bundle: unknown batch spec {str(spec)[:80]}")


def _store_batches(entries: list, name: str, folder: Path) -> list[dict[str, Any]]:
    out, leaves = [], []
    from ..monitor.capture import tensor_versions

    for batch, idx, st in entries:
        d: dict[str, Any] = {"indices": idx.tolist() if idx is not None else None}
        if st.get("group") is not None:
            d["group"] = int(st["group"])  # forward records: the backward they fed
        if st.get("versions") is not None and tensor_versions(batch) != st["versions"]:
            d["modified_in_place"] = True  # stored as it is now, not as the DataLoader gave it
        try:
            d["spec"] = flatten(batch, leaves)
        except Unsupported as exc:
            d["spec"] = None
            d["unsupported"] = f"batch type {exc} is not stored; replay rebuilds it from the indices"
        out.append(d)
    torch.save({f"t{i}": t for i, t in enumerate(leaves)}, folder / f"{name}.pt")
    return out


def _rng_plain(st: dict[str, Any]) -> dict[str, Any]:
    return {"torch": st["torch"].clone(), "cuda": [t.clone() for t in st.get("cuda", [])]}


def _cpu_state(roots: list[tuple[str, torch.nn.Module]]) -> dict[str, torch.Tensor]:
    out = {}
    for prefix, m in roots:
        for k, t in m.state_dict().items():
            out[prefix + k] = t.detach().to("cpu", copy=True)
    return out


def _save_step(view: dict[str, Any], roots: list, meta: dict[str, Any], tmp: Path) -> None:
    """The step's batches, the step before's, their RNG states and the weights the step's
    forward used (see ``Capture.bundle_view``)."""
    meta["batches"] = _store_batches(view["cur"], "batch", tmp)
    if view["prev"]:
        meta["prev_step"] = view["prev_step"]
        meta["prev_batches"] = _store_batches(view["prev"], "prev_batch", tmp)
    torch.save([_rng_plain(r) for _b, _i, r in view["cur"]], tmp / "rng.pt")
    if view["lagged"]:
        # lagged reads: written at the next step's boundary, from the weights kept at this
        # one (the optimizer state is the next step's: the replay does not read it)
        meta["lagged"] = {"weights": "kept" if view["state"] is not None else "after the step",
                          "optimizer": "after the step"}
    if view["state"] is not None:
        torch.save({k: t.to("cpu", copy=True) for k, t in view["state"].items()}, tmp / "model.pt")
    else:
        torch.save(_cpu_state(roots), tmp / "model.pt")


def write_bundle(cap: Any, step: int, trigger: dict[str, Any]) -> Path | None:
    """Write the bundle of ``step`` (called by the monitor before ``optimizer.step``)."""
    mon = cap.mon
    base = Path(mon.out) / "bundles"
    final = base / f"step-{step:06d}-r{mon.rank}"
    if final.exists():
        return None
    tmp = base / f".tmp-{final.name}-{os.getpid()}"
    base.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        roots = mon.live_roots()
        meta: dict[str, Any] = {
            "format": FORMAT, "step": step, "rank": mon.rank, "world_size": mon.world_size,
            "trigger": jsonable(trigger), "created": time.time(), "command": cap.command(),
            "torch": torch.__version__,
            "roots": [{"prefix": p, "class": type(m).__name__, "module": type(m).__module__,
                       "keys": list(m.state_dict().keys())[:100000]} for p, m in roots],
            "autocast_at_step_boundary": {"cpu": torch.is_autocast_enabled("cpu"),
                                          "cuda": torch.is_autocast_enabled("cuda")},
        }
        # signed: a bundle from elsewhere, or with an edited command, asks before it runs anything
        meta["origin"] = origin(final, jsonable(meta["command"]))
        _save_step(cap.bundle_view(step), roots, meta, tmp)
        early = cap.earlier_state(step)
        if early is not None:
            torch.save({k: t.to("cpu", copy=True) for k, t in early["tensors"].items()}, tmp / "earlier.pt")
            meta["earlier_step"] = early["step"]
        opts = []
        for opt in mon.optim.live():
            try:
                opts.append(opt.state_dict())
            except Exception:  # noqa: BLE001 - an exotic optimizer: the bundle goes on without it
                pass
        torch.save(opts, tmp / "optim.pt")
        scales = []
        for sc in mon.scalers.live():
            if getattr(sc, "_scale", None) is not None:
                scales.append(float(sc._scale.reshape(-1)[0]))  # trigger only: a sync
        meta["scaler_scales"] = scales
        meta["loader"] = mon.batches.train_loader  # dataset class and length: replay finds the loader by them
        meta["loader_prefetch_lag"] = mon.batches.lag or 0  # a loader drawing ahead: one test per script run
        if not mon.batches.loader_used:  # no DataLoader: the batches are the model's inputs (and loss targets)
            meta["batch_source"] = "forward"
        (tmp / "meta.json").write_text(json.dumps(jsonable(meta), indent=1))
        os.replace(tmp, final)  # atomic: a reader sees the whole bundle or none
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final


# ---------------------------------------------------------------- reading
def groups_of(entries: list[dict[str, Any]]) -> list[list[int]]:
    out: list[list[int]] = []
    last: Any = object()
    for i, e in enumerate(entries):
        g = e.get("group")
        if g is None or g != last or not out:
            out.append([i])
        else:
            out[-1].append(i)
        last = g
    return out


class Bundle:
    """A bundle folder, opened safely (JSON and ``weights_only`` tensor files)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.meta = read_meta(self.path)
        if self.meta.get("format") != FORMAT:
            raise UserError(f"{path}: bundle format {self.meta.get('format')!r}, this traindoc reads {FORMAT}")

    @property
    def step(self) -> int:
        return int(self.meta["step"])

    def load(self, name: str) -> Any:
        p = self.path / name
        if not p.is_file():
            return None
        _check_inflation(p)
        try:
            return torch.load(p, map_location="cpu", weights_only=True)
        except Exception as exc:  # noqa: BLE001
            raise UserError(f"{p}: unreadable tensor file ({type(exc).__name__}: {exc})") from None

    def batches(self, which: str = "batch") -> list[tuple[Any, list[int] | None]]:
        """[(batch or None when not stored, dataset indices)] of the step (or ``prev_batch``)."""
        entries = self.meta.get("batches" if which == "batch" else "prev_batches") or []
        tensors = self.load(f"{which}.pt") or {}
        try:
            leaves = [tensors[f"t{i}"] for i in range(len(tensors))]
            return [(unflatten(e["spec"], leaves) if e.get("spec") is not None else None, e.get("indices"))
                    for e in entries]
        except (KeyError, IndexError, TypeError, AttributeError, ValueError, RecursionError) as exc:
            raise UserError(f"{self.path}: the {which} description does not match {which}.pt "
                            f"({type(exc).__name__}: {exc})") from None

    def groups(self) -> list[list[int]]:
        """The step's tests: positions in ``batches()`` that one backward consumed together
        (forward records of a step with several forwards before its backward: a siamese or
        contrastive pair, an encoder called on two views); else one test per batch."""
        return groups_of(self.meta.get("batches") or [])

    def rng(self) -> list[dict[str, Any]]:
        return self.load("rng.pt") or []


def _check_inflation(p: Path) -> None:
    """``torch.save`` writes a zip archive of stored (uncompressed) entries, so what a
    bundle file holds is about its size on disk. A crafted file of compressed entries
    (1 MB inflating to 1 GiB) is refused before ``torch.load`` allocates it."""
    import zipfile

    if not zipfile.is_zipfile(p):
        return  # the legacy format holds no compression
    try:
        with zipfile.ZipFile(p) as z:
            inflated = sum(i.file_size for i in z.infolist())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise UserError(f"{p}: unreadable tensor file ({exc})") from None
    size = p.stat().st_size
    if inflated > 2 * size + (1 << 20):
        raise UserError(f"{p}: holds {inflated / 2**20:.0f} MiB compressed into {size / 2**20:.1f} MiB; "
                        f"torch.save does not compress: refusing to inflate it")


def restore_rng(st: dict[str, Any]) -> None:
    torch.set_rng_state(st["torch"])
    if st.get("cuda") and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(st["cuda"])


def worth_replaying(bundles: list[Path]) -> Path | None:
    """The bundle to replay among a run's ``bundles`` (in step order): the first non-finite
    step, else the first spike, else a script that stopped mid-step, and that only when it
    exited with an error code or its exception mentions NaN/Inf (a crash from a plain bug is
    not worth re-running it). ``traindoc run`` and ``traindoc replay RUN`` both pick this one."""
    import re

    spike = ended = None
    for p in bundles:
        try:
            trig = json.loads((p / "meta.json").read_text())["trigger"]
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            continue
        kind = trig.get("kind") or ""
        if kind.endswith("nonfinite"):
            return p
        if kind != "ended-mid-step":
            spike = spike or p
        elif ended is None and (trig.get("status") == "exited" or re.search(
                r"\b(nan|inf|infinite|(non-?)?finite)\b", trig.get("error") or "", re.I)):
            ended = p
    return spike or ended


def find_bundles(run_folder: str | Path) -> list[Path]:
    base = Path(run_folder) / "bundles"
    if not base.is_dir():
        return []
    return sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith("."))
