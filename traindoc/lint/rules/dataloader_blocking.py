"""TD509 dataloader-blocking: a DataLoader in a CUDA training script that loads in the main process or unpinned."""

from __future__ import annotations

import ast

from .. import names as N
from ..patterns import is_backward
from ..registry import Hit, lint_rule


@lint_rule(
    "dataloader-blocking", "TD509", "info",
    "a DataLoader in a CUDA training script with num_workers=0 or without pin_memory=True",
    needles=[("DataLoader",), ("cuda",), ("backward",)],
    fix="DataLoader(..., num_workers=min(8, os.cpu_count()), pin_memory=True, persistent_workers=True) "
        "and .to(device, non_blocking=True)",
    confirm="time the wait for the next batch (traindoc run records it): a large share of the step means "
            "`dataloader-bottleneck`",
)
def check(m):
    """What it detects: a `torch.utils.data.DataLoader(...)` in a script that trains
    (calls `backward()`) and uses CUDA, created with `num_workers=0` (or without
    `num_workers`, whose default is 0) or without `pin_memory=True`. A loader built with
    `**kwargs` is not flagged (the rule cannot see the values). Severity info: it costs
    time, not correctness.

    Why it breaks training: with `num_workers=0` the GPU waits while the main process
    reads, decodes and collates every batch; with workers the next batches are prepared
    while the GPU computes. Without pinned (page-locked) memory every host-to-device copy
    goes through a staging buffer and cannot overlap with compute (`non_blocking=True`
    needs pinned memory to be asynchronous). Together they often leave the GPU idle for
    most of the step (cause `dataloader-bottleneck`).

    Example:
        loader = DataLoader(ds, batch_size=256, shuffle=True)
        for x, y in loader:
            x, y = x.cuda(), y.cuda()

    How to fix:
        loader = DataLoader(ds, batch_size=256, shuffle=True, num_workers=8,
                            pin_memory=True, persistent_workers=True)
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        # keep pin_memory off if the dataset already yields CUDA tensors
    """
    if not any(is_backward(m, s.node) for s in m.w.calls):
        return
    if not _uses_cuda(m):
        return
    for site in m.w.calls:
        call = site.node
        c = m.callee(call)
        if c[0] != "fn" or c[1] not in N.DATALOADER or any(k.arg is None for k in call.keywords):
            continue
        kw = {k.arg: k.value for k in call.keywords}
        issues = []
        nw = kw.get("num_workers", ast.Constant(0) if len(call.args) < 8 else None)
        if isinstance(nw, ast.Constant) and nw.value == 0:
            issues.append("num_workers=0 (batches are loaded in the main process while the GPU waits)")
        pm = kw.get("pin_memory", ast.Constant(False) if len(call.args) < 9 else None)
        if isinstance(pm, ast.Constant) and pm.value is False:
            issues.append("no pin_memory=True (host-to-device copies cannot overlap with compute)")
        if issues:
            yield Hit(call, "DataLoader in a CUDA training script with " + " and ".join(issues))


def _uses_cuda(m) -> bool:
    """`.cuda()`, `device="cuda"`, `torch.device("cuda:0")`, `torch.cuda.*` in the file."""
    src = m.source
    return b".cuda(" in src or b'"cuda' in src or b"'cuda" in src or b"torch.cuda." in src
