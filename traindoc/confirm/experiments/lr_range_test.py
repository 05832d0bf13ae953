"""lr-range-test: an exponential learning-rate sweep from the script's initial state."""

from __future__ import annotations

import math

import torch

from ..registry import CONFIRMED, INCONCLUSIVE, REFUTED, Experiment, Verdict, experiment

DIVERGE = 4.0  # the sweep stops once the smoothed loss exceeds this multiple of its minimum


def _record_unscaled(hooks) -> dict[int, float]:
    """id(scaled loss) -> the loss before ``GradScaler.scale`` multiplied it (the sweep
    records the script's loss, not the scaled one)."""
    from torch.amp.grad_scaler import GradScaler

    unscaled: dict[int, float] = {}
    orig_scale = GradScaler.scale

    def scale(self_s, outputs):
        out = orig_scale(self_s, outputs)
        if isinstance(outputs, torch.Tensor) and isinstance(out, torch.Tensor):
            unscaled[id(out)] = float(outputs.detach().float().sum())
        return out

    hooks._set(GradScaler, "scale", scale)
    return unscaled


@experiment
class LrRangeTest(Experiment):
    """What it changes: the learning rate of every param group is set, step by step, to a
    rate growing exponentially from ``start`` to ``end`` over ``steps`` optimizer steps
    (param groups keep their ratios to the first group; the script's scheduler still runs,
    but the sweep overrides its rate at each step). The sweep stops once the loss
    (smoothed) exceeds 4 times its minimum or goes non-finite. The loss of each step is
    recorded with the rate of that step (unscaled under a GradScaler).

    What it settles: the usable learning-rate interval (``traindoc lr-find``), and, in
    ``traindoc confirm``, `lr-too-high` and `lr-too-low` by comparing the script's own
    rate with it.

    How it is judged: the curve is read as ``traindoc lr-find`` reads it (a centred
    smoothing; the rate at its minimum is the edge where training breaks; the suggestion
    a tenth of it, the safe interval a thirtieth to a third). `lr-too-high`: the script's
    largest rate above the edge confirms it, one inside the safe interval or below
    refutes it. `lr-too-low`: the script's median rate 30x or more below the suggestion
    confirms it, one within 3x of it or above refutes it. A sweep that found no edge (the
    loss never fell, or broke at once) is inconclusive.
    """

    name = "lr-range-test"
    changes = "exponential learning-rate sweep from the initial state"
    settles = {"lr-too-high": {}, "lr-too-low": {}}
    needs_steps = 0

    def applies(self, cause, ctx) -> str | None:
        if not ctx.get("script_lr"):
            return "the run recorded no learning rate to compare with the sweep"
        return None

    def params_for(self, cause, ctx) -> dict:
        lo = min(1e-7, float(ctx["script_lr"]) / 30)
        return {"start": lo, "end": 10.0, "steps": 100, "script_lr": float(ctx["script_lr"]),
                "script_lr_max": float(ctx.get("script_lr_max") or ctx["script_lr"])}

    def label(self, params) -> str:
        return f"lr swept {params.get('start', 0):.0e}..{params.get('end', 0):.0e}"

    def install(self, hooks, params, ctx) -> None:
        from ...monitor.capture import StopTraining

        start, end, n = float(params["start"]), float(params["end"]), int(params["steps"])
        sweep: list[list[float]] = []
        hooks.values["sweep"] = sweep
        state = {"t": 0, "ratios": None, "loss": 0.0, "seen": False, "best": math.inf, "ema": None,
                 "saved": {}}
        unscaled = _record_unscaled(hooks)

        def lr_at(t: int) -> float:
            return start * (end / start) ** (t / max(1, n - 1))

        def backward(loss: torch.Tensor) -> torch.Tensor:
            v = unscaled.pop(id(loss), None)
            state["loss"] += v if v is not None else float(loss.detach().float().sum())
            state["seen"] = True
            return loss

        def pre(opt: torch.optim.Optimizer) -> None:
            if state["ratios"] is None:
                base = [g.get("initial_lr", g.get("lr")) for g in opt.param_groups]
                b0 = float(base[0]) if base and base[0] else 0.0
                state["ratios"] = [float(b) / b0 if b0 and b else 1.0 for b in base]
            lr = lr_at(state["t"])
            state["saved"][id(opt)] = [g.get("lr") for g in opt.param_groups]
            for g, r in zip(opt.param_groups, state["ratios"]):
                g["lr"] = lr * r if not isinstance(g.get("lr"), torch.Tensor) else g["lr"].fill_(lr * r)

        def post(opt: torch.optim.Optimizer) -> None:
            for g, lr in zip(opt.param_groups, state["saved"].pop(id(opt), [])):
                if not isinstance(lr, torch.Tensor):
                    g["lr"] = lr
            loss = state["loss"] if state["seen"] else math.nan
            sweep.append([lr_at(state["t"]), loss])
            state["loss"], state["seen"] = 0.0, False
            state["t"] += 1
            ema = loss if state["ema"] is None else 0.9 * state["ema"] + 0.1 * loss
            state["ema"] = ema
            if math.isfinite(ema):
                state["best"] = min(state["best"], ema)
            if not math.isfinite(loss) or (state["t"] >= 10 and ema > DIVERGE * state["best"] > 0):
                raise StopTraining(state["t"], "the loss diverged", "lr-find")
            if state["t"] >= n:
                raise StopTraining(state["t"], "the sweep is complete", "lr-find")

        hooks.on_backward.append(backward)
        hooks.on_opt_pre.append(pre)
        hooks.on_opt_post.append(post)

    def judge(self, cause, base, var, params) -> Verdict:
        from ..lrfind import suggest

        sweep = var.notes.get("sweep") or []
        ctx = params
        if len(sweep) < 10 or not ctx.get("script_lr"):
            return Verdict(INCONCLUSIVE, f"the sweep ran {len(sweep)} steps ({var.error or var.status})")
        r = suggest([a for a, _ in sweep], [b for _, b in sweep])
        if r.edge is None:
            return Verdict(INCONCLUSIVE, f"the LR range test found no usable interval: {r.note}")
        lr, top = float(ctx["script_lr"]), float(ctx.get("script_lr_max") or ctx["script_lr"])
        where = (f"the range test puts the edge of stability at {r.edge:.2g} (suggested {r.suggestion:.2g}, safe "
                 f"{r.interval[0]:.2g}..{r.interval[1]:.2g})")
        if cause == "lr-too-high":
            if top > r.edge:
                return Verdict(CONFIRMED, f"the script's rate {top:.2g} is above where training breaks: {where}",
                               effect=top / r.edge)
            if top <= r.interval[1]:
                return Verdict(REFUTED, f"the script's rate {top:.2g} is within the safe range: {where}",
                               effect=top / r.edge)
            return Verdict(INCONCLUSIVE, f"the script's rate {top:.2g} is near the edge: {where}", effect=top / r.edge)
        if lr * 30 <= r.suggestion:
            return Verdict(CONFIRMED, f"the script's rate {lr:.2g} is {r.suggestion / lr:.0f}x below the suggested "
                                      f"rate: {where}", effect=lr / r.suggestion)
        if lr * 3 >= r.suggestion:
            return Verdict(REFUTED, f"the script's rate {lr:.2g} is within 3x of the suggested rate or above: "
                                    f"{where}", effect=lr / r.suggestion)
        return Verdict(INCONCLUSIVE, f"the script's rate {lr:.2g} is {r.suggestion / lr:.1f}x below the suggested "
                                     f"rate: {where}", effect=lr / r.suggestion)
