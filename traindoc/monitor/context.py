"""What is recorded once per run: command, versions, device, rank, model and optimizer
summaries. Plain JSON-able dicts."""

from __future__ import annotations

import os
import platform
import re
import socket
import sys
import time
from typing import Any

import torch


def dist_info() -> dict[str, int]:
    """Rank and world size from torchrun's environment (before init_process_group runs)."""
    env = os.environ
    return {
        "rank": int(env.get("RANK", 0)),
        "local_rank": int(env.get("LOCAL_RANK", 0)),
        "world_size": int(env.get("WORLD_SIZE", 1)),
    }


def environment() -> dict[str, Any]:
    import numpy

    from .. import __version__

    dev: dict[str, Any] = {"cuda": torch.cuda.is_available()}
    if dev["cuda"]:
        try:
            dev["name"] = torch.cuda.get_device_name(0)
            dev["count"] = torch.cuda.device_count()
        except Exception:  # noqa: BLE001
            pass
    return {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": numpy.__version__,
        "traindoc": __version__,
        "platform": platform.platform(),
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "threads": torch.get_num_threads(),
        "device": dev,
        "started": time.time(),
        "argv": list(sys.argv),
        "cwd": os.getcwd(),
    }


def model_summary(name: str, model: torch.nn.Module) -> dict[str, Any]:
    modules = []
    for mname, m in model.named_modules():
        own = sum(p.numel() for p in m.parameters(recurse=False))
        modules.append([mname, type(m).__name__, own])
        if len(modules) >= 5000:
            break
    params = list(model.parameters())
    # frozen tensors by name (requires_grad=False at the first step), and how many weight
    # matrices train: a model whose every weight is frozen and whose biases train was not
    # frozen on purpose (params-not-updated); capped, once per model
    frozen = [[n, p.dim(), p.numel()] for n, p in model.named_parameters() if not p.requires_grad][:500]
    return {
        "name": name,
        "class": type(model).__name__,
        "parameters": sum(p.numel() for p in params),
        "trainable": sum(p.numel() for p in params if p.requires_grad),
        "bytes": sum(p.numel() * p.element_size() for p in params),
        "dtypes": sorted({str(p.dtype).replace("torch.", "") for p in params}),
        "devices": sorted({str(p.device) for p in params}),
        "training": model.training,
        "modules": modules,
        "frozen": frozen,
        "trainable_weights": sum(1 for p in params if p.requires_grad and p.dim() >= 2),
        **dict(zip(("init_gain", "constant_weights"), _init_scan(model))),
    }


# modules whose weights are not a fan-in product (a lookup table, a per-channel scale) or
# whose default init is not fan-in scaled (RNNs draw U(+-1/sqrt(hidden)) whatever the input)
_NO_FAN_IN = ("Embedding", "EmbeddingBag", "RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell")
_MAX_GAIN_ROWS = 2000


def weight_fan_in(p: torch.Tensor, raw: bool = False) -> int:
    """The fan-in of a weight tensor (2-D and up) as ``torch.nn.init`` reads it (second
    side times the kernel); for a ``raw`` parameter of a script's own module, whose
    ``x @ W`` may use either side, the smaller of that and the first side."""
    fan_in = p.shape[1] * p[0][0].numel()
    return min(fan_in, p.shape[0]) if raw else fan_in


def _gain(p: torch.Tensor, raw: bool) -> torch.Tensor:
    """rms(W) * sqrt(fan_in) of one weight tensor, on its device (no sync)."""
    return p.detach().float().norm() * (weight_fan_in(p, raw=raw) / p.numel()) ** 0.5


def host_floats(ts: list[torch.Tensor]) -> list[float]:
    """The values of 0-d tensors, read with one stack and one host copy per device."""
    by_dev: dict[Any, list[int]] = {}
    for i, t in enumerate(ts):
        by_dev.setdefault(t.device, []).append(i)
    out = [0.0] * len(ts)
    for idx in by_dev.values():
        for i, v in zip(idx, torch.stack([ts[i].float() for i in idx]).tolist()):
            out[i] = v
    return out


def init_gains(model: torch.nn.Module) -> list[list]:
    """[parameter, module class, fan-in gain] for the trainable weight tensors (2-D and up)
    of ``model`` as it is now (at the first optimizer step: its initialisation). The gain is
    rms(W) * sqrt(fan_in), the factor by which the layer scales the std of unit-variance
    independent inputs: PyTorch's default Linear/Conv init gives 0.58, Xavier at most 1.41,
    Kaiming 1.41, N(0, 1) sqrt(fan_in). Fan-in as ``torch.nn.init`` reads it; for a raw
    parameter of a custom module (``x @ W`` may use either side) the smaller of its first
    two sides. One norm per weight and one host copy, once per model; [] where the weights
    cannot be read here (meta tensors, sharded parameters)."""
    return _init_scan(model)[0]


def _init_scan(model: torch.nn.Module) -> tuple[list[list], list[str]]:
    """:func:`init_gains`'s rows, and the weights among them whose every value is the same
    (``nn.init.constant_``, zeros): the units of such a layer compute the same function and
    get the same gradient. Its max - min rides in the gains' one host copy."""
    rows, norms, spreads = [], [], []
    try:
        with torch.no_grad():
            for mname, m in model.named_modules():
                cls = type(m).__name__
                if cls.startswith(_NO_FAN_IN) or "Norm" in cls:
                    continue
                for pname, p in m.named_parameters(recurse=False):
                    if p.dim() < 2 or not p.requires_grad or not p.is_floating_point() or p.numel() == 0:
                        continue
                    rows.append([f"{mname}.{pname}" if mname else pname, cls])
                    norms.append(_gain(p, raw=type(m).__module__.split(".")[0] != "torch"))
                    spreads.append(p.detach().amax() - p.detach().amin())
                    if len(rows) >= _MAX_GAIN_ROWS:
                        break
                if len(rows) >= _MAX_GAIN_ROWS:
                    break
            got = host_floats(norms + spreads) if norms else []
    except Exception:  # noqa: BLE001  (a weight this process cannot read: say nothing)
        return [], []
    gains, spread = got[:len(norms)], got[len(norms):]
    return ([r + [float(f"{g:.4g}")] for r, g in zip(rows, gains)],
            [r[0] for r, d in zip(rows, spread) if d == 0][:200])


def _plain(v: Any) -> Any:
    if isinstance(v, (int, float, str, bool)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, torch.Tensor) and v.numel() == 1:
        return float(v.detach().cpu())
    return repr(v)[:200]


def optimizer_summary(index: int, opt: torch.optim.Optimizer, raw: bool = False) -> dict[str, Any]:
    """``raw``: no model is watched (tensors handed to the optimizer by hand): each group
    also gets the fan-in gains of its weights, read before the first update (bad-init)."""
    groups = []
    for g in opt.param_groups:
        groups.append({k: _plain(v) for k, v in g.items() if k != "params"}
                      | {"n_params": len(g["params"]), "numel": sum(p.numel() for p in g["params"]),
                         # frozen on purpose (a fine-tuned backbone passed with the head):
                         # the params-not-updated rule leaves these out
                         "n_frozen": sum(1 for p in g["params"] if not p.requires_grad),
                         "numel_frozen": sum(p.numel() for p in g["params"] if not p.requires_grad)}
                      # shapes, for parameters no model names (raw tensors: opt0.group0.param3):
                      # which are weight matrices, how big, in the order given (layer order
                      # for the usual hand-written nets); capped, a few KB once per run
                      | ({"shapes": [list(p.shape) for p in g["params"]]} if len(g["params"]) <= 512 else {})
                      | ({"gains": raw_gains(g["params"])} if raw and len(g["params"]) <= 512 else {}))
    return {
        "index": index,
        "class": type(opt).__name__,
        "defaults": {k: _plain(v) for k, v in opt.defaults.items()},
        "groups": groups,
    }


def raw_gains(params: list[torch.Tensor]) -> list[float | None]:
    """rms(W) * sqrt(fan_in) of each weight tensor (2-D and up; None for the others), the
    fan-in the smaller of the first two sides (``x @ W`` may use either): a raw network's
    init as :func:`init_gains` reads a module's. One norm per weight and one host copy, once."""
    try:
        with torch.no_grad():
            idx = [i for i, p in enumerate(params) if p.dim() >= 2 and p.is_floating_point() and p.numel()]
            if not idx:
                return [None] * len(params)
            vals = host_floats([_gain(params[i], raw=True) for i in idx])
    except Exception:  # noqa: BLE001  (a weight this process cannot read: say nothing)
        return [None] * len(params)
    out: list[float | None] = [None] * len(params)
    for i, v in zip(idx, vals):
        out[i] = float(f"{v:.4g}")
    return out


def scheduler_summary(s: Any) -> dict[str, Any]:
    keep = {}
    for k, v in vars(s).items():
        if k.startswith("_") or k == "optimizer":
            continue
        pv = _plain(v)
        if isinstance(pv, (int, float, str, bool)) or (isinstance(pv, list) and len(pv) < 20):
            keep[k] = pv
    return {"class": type(s).__name__, "config": keep}


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def exception_line(tb: str) -> str:
    """``Type: first line of the message`` from a formatted traceback: the first line that
    does not start with whitespace after the last ``  File "..."`` frame line. A message
    of several lines (torch.load's weights_only advice, indented or not) would otherwise be
    summed up by its last line. Terminal colour codes are dropped (torch.load's advice puts
    ``\x1b[1m`` around its warning, which a report would show as text)."""
    tb = _ANSI.sub("", tb)
    lines = [ln for ln in tb.splitlines() if ln.strip()]
    if not lines:
        return tb
    frames = [i for i, ln in enumerate(lines) if ln.lstrip().startswith('File "') and ln[:1].isspace()]
    after = [ln for ln in lines[frames[-1] + 1:] if not ln[:1].isspace()] if frames else []
    return (after[0] if after else lines[-1])[:300]
