"""lr-range-test: an exponential learning-rate sweep from the script's initial state."""

from __future__ import annotations

import math

import torch

from ..registry import INCONCLUSIVE, Experiment, Verdict, experiment

DIVERGE = 4.0  # the sweep stops once the smoothed loss exceeds this multiple of its minimum


@experiment
class LrRangeTest(Experiment):
    """What it changes: the learning rate of every param group is set, step by step, to a
    rate growing exponentially from ``start`` to ``end`` over ``steps`` optimizer steps
    (param groups keep their ratios to the first group; the script's scheduler still runs,
    but the sweep overrides its rate at each step). The sweep stops once the loss
    (smoothed) exceeds 4 times its minimum or goes non-finite. The loss of each step is
    recorded with the rate of that step (unscaled under a GradScaler).

    What it settles: the usable learning-rate interval (``traindoc lr-find``); not run by
    ``traindoc confirm``.

    How it is judged: see :mod:`traindoc.lrfind`: the curve is smoothed without lag
    (a centred window), the rate of its minimum is where training starts to break, and
    the suggestion is a tenth of it, with the interval from a thirtieth to a third.
    """

    name = "lr-range-test"
    changes = "exponential learning-rate sweep from the initial state"
    settles: dict = {}

    def label(self, params) -> str:
        return f"lr swept {params.get('start', 0):.0e}..{params.get('end', 0):.0e}"

    def install(self, hooks, params, ctx) -> None:
        from ...monitor.capture import StopTraining

        start, end, n = float(params["start"]), float(params["end"]), int(params["steps"])
        sweep: list[list[float]] = []
        hooks.values["sweep"] = sweep
        state = {"t": 0, "ratios": None, "loss": 0.0, "seen": False, "best": math.inf, "ema": None,
                 "saved": {}}
        unscaled: dict[int, float] = {}

        from torch.amp.grad_scaler import GradScaler

        orig_scale = GradScaler.scale

        def scale(self_s, outputs):
            out = orig_scale(self_s, outputs)
            if isinstance(outputs, torch.Tensor) and isinstance(out, torch.Tensor):
                unscaled[id(out)] = float(outputs.detach().float().sum())
            return out

        hooks._set(GradScaler, "scale", scale)

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
        return Verdict(INCONCLUSIVE, "the LR range test is read by traindoc lr-find, not judged")
