"""What is recorded once per run: command, versions, device, rank, model and optimizer
summaries. Plain JSON-able dicts."""

from __future__ import annotations

import os
import platform
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
    }


def _plain(v: Any) -> Any:
    if isinstance(v, (int, float, str, bool)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, torch.Tensor) and v.numel() == 1:
        return float(v.detach().cpu())
    return repr(v)[:200]


def optimizer_summary(index: int, opt: torch.optim.Optimizer) -> dict[str, Any]:
    groups = []
    for g in opt.param_groups:
        groups.append({k: _plain(v) for k, v in g.items() if k != "params"}
                      | {"n_params": len(g["params"]), "numel": sum(p.numel() for p in g["params"]),
                         # frozen on purpose (a fine-tuned backbone passed with the head):
                         # the params-not-updated rule leaves these out
                         "n_frozen": sum(1 for p in g["params"] if not p.requires_grad),
                         "numel_frozen": sum(p.numel() for p in g["params"] if not p.requires_grad)})
    return {
        "index": index,
        "class": type(opt).__name__,
        "defaults": {k: _plain(v) for k, v in opt.defaults.items()},
        "groups": groups,
    }


def scheduler_summary(s: Any) -> dict[str, Any]:
    keep = {}
    for k, v in vars(s).items():
        if k.startswith("_") or k == "optimizer":
            continue
        pv = _plain(v)
        if isinstance(pv, (int, float, str, bool)) or (isinstance(pv, list) and len(pv) < 20):
            keep[k] = pv
    return {"class": type(s).__name__, "config": keep}


def exception_line(tb: str) -> str:
    """``Type: first line of the message`` from a formatted traceback: the first line that
    does not start with whitespace after the last ``  File "..."`` frame line. A message
    of several lines (torch.load's weights_only advice, indented or not) would otherwise be
    summed up by its last line."""
    lines = [ln for ln in tb.splitlines() if ln.strip()]
    if not lines:
        return tb
    frames = [i for i, ln in enumerate(lines) if ln.lstrip().startswith('File "') and ln[:1].isspace()]
    after = [ln for ln in lines[frames[-1] + 1:] if not ln[:1].isspace()] if frames else []
    return (after[0] if after else lines[-1])[:300]
