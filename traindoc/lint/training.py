"""The calls of a training step: backward, optimizer step, gradient clear, scheduler step,
gradient clipping, GradScaler; recognised by resolved name first, by variable name when
the kind cannot be proven (``opt.step()`` on an optimizer built elsewhere)."""

from __future__ import annotations

import ast
from typing import Any

from . import names as N
from .kinds import Module
from .source import text


def is_backward(m: Module, call: ast.Call) -> bool:
    """``loss.backward()``, ``scaler.scale(loss).backward()``, ``accelerator.backward(loss)``,
    ``self.manual_backward(loss)``, ``torch.autograd.backward(...)``."""
    f = call.func
    if isinstance(f, ast.Attribute):
        if f.attr == "manual_backward":
            return True
        if f.attr == "backward":
            q = m.qualname(f)
            return q is None or q == "torch.autograd.backward"
    return False


def backward_target(call: ast.Call) -> Any:
    """The tensor a backward call backpropagates: ``loss`` in ``loss.backward()``,
    ``scaler.scale(loss).backward()``, ``accelerator.backward(loss)``,
    ``self.manual_backward(loss)``, ``criterion(out, y).backward()`` (the call); None for
    anything else."""
    f = call.func
    if not isinstance(f, ast.Attribute):
        return None
    if f.attr == "backward":
        r = f.value
        if isinstance(r, ast.Call) and isinstance(r.func, ast.Attribute) and r.func.attr == "scale" and r.args:
            return r.args[0]
        if isinstance(r, (ast.Name, ast.BinOp, ast.Attribute, ast.Subscript, ast.Call)):
            return r  # ``criterion(out, y).backward()`` too
        return None
    if f.attr == "manual_backward" and call.args:
        return call.args[0]
    return None


# Optimizer classes of libraries outside torch.optim (transformers, apex, timm, bitsandbytes, ...).
_OPTIMIZER_CLASSES = frozenset({"AdamW", "Adam", "SGD", "Adafactor", "LAMB", "Lamb", "FusedAdam", "FusedLAMB", "Lion",
                                "RAdam", "AdamW8bit", "Adam8bit", "PagedAdamW", "Adan", "Sophia", "Shampoo", "LARS"})


def is_step(m: Module, call: ast.Call) -> bool:
    """An optimizer step: ``opt.step()``, ``scaler.step(opt)``, ``xm.optimizer_step(opt)``; not a scheduler's."""
    f = call.func
    if not isinstance(f, ast.Attribute):
        return False
    if f.attr == "optimizer_step":
        return True
    if f.attr != "step":
        return False
    recv = f.value
    k = m.kind(recv)
    if isinstance(k, tuple) and k[0] == "inst":
        q = k[1]
        if q.startswith("torch.optim.lr_scheduler") or "Scheduler" in q or "LR" in q.rsplit(".", 1)[-1]:
            return False
        if q.startswith("torch.optim.") or q.endswith(("GradScaler",)) or "optim" in q.lower() \
                or q.rsplit(".", 1)[-1] in _OPTIMIZER_CLASSES:
            return True
        # an instance of a class the rule does not know (transformers.AdamW and the like):
        # its name decides, as for an unknown value
    t = text(recv).lower()
    if "sched" in t or "lr" == t.rsplit(".", 1)[-1] or "env" in t:
        return False
    if "scaler" in t:
        return True
    return any(w in t for w in ("opt", "optim", "optimizer", "optimiser"))


def step_target(call: ast.Call) -> str:
    """What an optimizer step updates, as text: ``opt`` for ``opt.step()`` and ``scaler.step(opt)``."""
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr == "step" and call.args and "scaler" in text(f.value).lower():
        return text(call.args[0])
    if isinstance(f, ast.Attribute) and f.attr == "optimizer_step" and call.args:
        return text(call.args[0])
    return text(f.value) if isinstance(f, ast.Attribute) else ""


def is_clear(m: Module, node: ast.AST) -> bool:
    """Clears gradients: ``*.zero_grad(...)``, ``p.grad = None``, ``p.grad.zero_()``."""
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute):
            if f.attr in ("zero_grad", "clear_grad", "zero_grad_"):
                return True
            if f.attr in ("zero_", "detach_", "fill_") and text(f.value).endswith("grad"):
                return True
    return False


def train_event(m: Module, call: ast.Call) -> str:
    """"B" backward, "S" optimizer step, "Z" gradient clear, "" otherwise."""
    if is_backward(m, call):
        return "B"
    if is_step(m, call):
        return "S"
    if is_clear(m, call):
        return "Z"
    return ""


def is_sched_step(m: Module, call: ast.Call) -> bool:
    """``scheduler.step()`` of a learning-rate scheduler (not ReduceLROnPlateau, which takes a metric)."""
    f = call.func
    if not isinstance(f, ast.Attribute) or f.attr != "step":
        return False
    k = m.kind(f.value)
    if isinstance(k, tuple) and k[0] == "inst":
        q = k[1]
        if "Plateau" in q:
            return False
        if q.startswith("torch.optim.lr_scheduler") or "Scheduler" in q or "LR" in q.rsplit(".", 1)[-1]:
            return not call.args or "epoch" in text(call.args[0]).lower()
        return False
    if isinstance(f.value, ast.Name):
        d = m.defs(f.value)
        if d and len(d) == 1 and isinstance(d[0], ast.Call) \
                and "schedule" in (m.qualname(d[0].func) or "").rsplit(".", 1)[-1]:
            return not call.args  # warm = get_linear_schedule_with_warmup(opt, ...) (transformers)
    t = text(f.value).lower()
    if "plateau" in t:
        return False
    if "sched" in t or t.rsplit(".", 1)[-1] in ("lr_scheduler", "scheduler"):
        return not call.args and not call.keywords or any("epoch" in text(a).lower() for a in call.args) \
            or any(k.arg == "epoch" for k in call.keywords)  # step(epoch=epoch - 1)
    return False


def is_clip(m: Module, call: ast.Call) -> str:
    """"torch" for ``torch.nn.utils.clip_grad_norm_(...)`` (and value_), "other" for a helper
    that unscales itself (``accelerator.clip_grad_norm_``), "" otherwise."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if not name.startswith("clip_grad"):
        return ""
    q = m.qualname(f)
    if q in N.CLIP_GRAD:
        return "torch"
    return "other"


def is_scaler(m: Module, e: Any) -> bool:
    """A GradScaler: by its class (``torch.amp.GradScaler``) or by a name containing "scaler"."""
    k = m.kind(e)
    if isinstance(k, tuple) and k[0] == "inst" and k[1].endswith(N.GRAD_SCALERS):
        return True
    return "scaler" in text(e).lower()


def parameter_owners(m: Module) -> set[str]:
    """Names of what the file calls ``.parameters()`` / ``.named_parameters()`` on
    (``model``, ``self.unet``, both ``model`` and ``encoder`` of ``model.encoder``): the
    models it hands to an optimizer, whatever their names."""
    got = m.memo.get("parameter-owners")
    if got is None:
        got = m.memo["parameter-owners"] = set()
        for s in m.w.calls:
            f = s.node.func
            if isinstance(f, ast.Attribute) and f.attr in ("parameters", "named_parameters"):
                # model.encoder.parameters(): the optimizer trains part of `model` too
                got.update(n for n in text(f.value).split(".") if n and n != "self")
    return got
