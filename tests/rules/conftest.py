"""Synthetic run folders for the cause rules, written with the store's own writer.

Each fixture describes a run the way the monitor would record it (loss, grad_norm,
lr, sampled activation statistics, metadata), with only the feature its rule looks for
changed from a healthy baseline, so a rule that fires on the baseline fails its test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from traindoc.store.writer import RunWriter

MODULES = [["", "Sequential", 0], ["0", "Linear", 4160], ["1", "ReLU", 0], ["2", "Linear", 4160], ["3", "ReLU", 0],
           ["4", "Linear", 650]]
PARAMS = ["0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"]


def healthy_series(n=300, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    loss = 0.3 + 2.0 * np.exp(-t / 60) + 0.03 * rng.standard_normal(n)
    grad = 1.0 * np.exp(-t / 200) + 0.15 * np.abs(rng.standard_normal(n)) + 0.2
    return loss, grad


def write_run(folder, n=300, loss=None, grad=None, lr=1e-3, opt="Adam", seed=0, act=None, eval_loss=None,
              labels=None, time_data=None, trainable=8970, in_opt=8970, per_param=None, update=None, sample_every=20,
              dtypes=("float32",), modules=None, params=None, no_grads=False,
              grad_bad_from=None, carried=None, accum=None, zero_params=(), loss_fn=None, ce=None, init_gain=None,
              shapes=None, model_extra=None, sampled_extra=None, meta=None, preclip=None, events=(),
              batch=32):
    """Write a run folder. ``act``: {module: {stat: value or fn(step)}} on sampled steps;
    ``per_param``: {param: fn(step) -> grad norm}; ``update``: {param: ratio} or fn(step) (sampled);
    ``no_grads``: no optimizer tensor ever gets a gradient (the loss does not reach them);
    ``grad_bad_from``: the step from which some gradients are non-finite;
    ``carried``: what .grad held when backward began, as a share of the step's gradient (sampled);
    ``accum``: (micro-batches per step, backpropagated / loss-function value) on sampled steps;
    ``zero_params``: parameters that are exactly 0 and never move (sampled param_norm/update_ratio);
    ``loss_fn``: (name, input shape): what the loss function was given (``loss_function/NAME``);
    ``ce``: the cross-entropy's own values (``loss/ce``; default: the loss, with a CE ``loss_fn``);
    ``init_gain``: the model summary's [param, class, fan-in gain] rows;
    ``shapes``: the optimizer group's parameter shapes (raw tensors named ``opt0.group0.paramK``);
    ``model_extra``: more keys of the model summary (``frozen``, ``trainable_weights``);
    ``sampled_extra``: {series: value} written on every sampled step (``in/absmax``);
    ``meta``: more metadata entries ({key: value}, e.g. ``loss_graph``);
    ``preclip``: clip_grad_norm_'s returned norm per step (``grad_norm_preclip``);
    ``events``: (step, kind, message, data) tuples written as events;
    ``batch``: the samples each step draws (its recorded indices)."""
    modules = MODULES if modules is None else modules
    params = PARAMS if params is None else params
    rng = np.random.default_rng(seed + 1)
    hl, hg = healthy_series(n, seed)
    loss = hl if loss is None else loss
    grad = hg if grad is None else grad
    w = RunWriter(folder, flush_interval=0.01)
    w.meta("model/model", {"name": "model", "class": "Sequential", "parameters": trainable, "trainable": trainable,
                           "dtypes": list(dtypes), "modules": modules}
           | ({"init_gain": init_gain} if init_gain is not None else {}) | (model_extra or {}))
    lr0 = float(lr(0)) if callable(lr) else lr  # (a callable: the learning rate per step)
    w.meta("optimizer/0", {"index": 0, "class": opt, "defaults": {"lr": lr0},
                           "groups": [{"lr": lr0, "n_params": len(params), "numel": in_opt}
                                      | ({"shapes": shapes} if shapes is not None else {})]})
    for key, value in (meta or {}).items():
        w.meta(key, value)
    if loss_fn is not None:
        w.meta(f"loss_function/{loss_fn[0]}", {"step": 0, "input": {"shape": list(loss_fn[1]), "dtype": "float32"},
                                             "target": {"shape": list(loss_fn[1][:1]), "dtype": "int64"}})
    act = act or {"0": {"std": 1.0, "absmax": 3.0}, "1": {"dead": 0.05, "std": 0.6, "absmax": 3.0},
                  "2": {"std": 0.9, "absmax": 3.0}, "3": {"dead": 0.05, "std": 0.5, "absmax": 2.5},
                  "4": {"std": 1.2, "absmax": 4.0}}
    for s in range(n):
        bad_g = grad_bad_from is not None and s >= grad_bad_from
        if ce is not None or (loss_fn is not None and loss_fn[0] in ("cross_entropy", "nll_loss")):
            v0 = {"loss/ce": float((loss if ce is None else ce)[s])}
        else:
            v0 = {}
        v = {**v0, "loss": float(loss[s]), "grad_norm": float(grad[s]), "grad_nonfinite": 4.0 if bad_g else 0.0,
             "lr/0/0": float(lr(s)) if callable(lr) else lr,
             "time/step": 0.01 * (1 + 0.05 * rng.random())}
        v["time/data"] = 0.001 if time_data is None else time_data * v["time/step"]
        for i, p in enumerate([] if no_grads else params):
            v[f"grad_norm/{p}"] = float(per_param[p](s)) if per_param and p in per_param else float(grad[s]) / 2.5
        if s % sample_every == 0 or s < 3:
            v["sampled"] = 1.0
            v["grad_tensors"] = 0.0 if no_grads else float(len(params))
            if accum is not None:
                v["accum/backwards"], v["accum/scale"] = float(accum[0]), float(accum[1])
            if carried is not None:
                v["grad_carried"], v["grad_carried_ref"] = carried * float(grad[s]), float(grad[s])
            for mod, stats in act.items():
                for k, val in stats.items():
                    v[f"act/{mod}/{k}"] = float(val(s) if callable(val) else val)
                v[f"act/{mod}/mean"] = 0.1
            ur = 1e-3 if update is None else update(s) if callable(update) else update
            for p in params:
                r = ur.get(p, 1e-3) if isinstance(ur, dict) else ur
                v[f"update_ratio/{p}"] = 0.0 if p in zero_params else r
                v[f"param_norm/{p}"] = 0.0 if p in zero_params else 5.0
            v["update_ratio"] = ur if not isinstance(ur, dict) else 1e-3
            v.update({k: float(x(s)) if callable(x) else x for k, x in (sampled_extra or {}).items()})
        if preclip is not None:
            v["grad_norm_preclip"] = float(preclip[s])
        w.scalars(s, {k: (x if math.isfinite(x) else x) for k, x in v.items()})
        w.indices(s, np.arange(s * batch, s * batch + batch) % 5000)
        if eval_loss is not None and s % (n // len(eval_loss)) == n // len(eval_loss) - 1:
            w.scalars(s, {"loss/eval": float(eval_loss[min(len(eval_loss) - 1, s // (n // len(eval_loss)))])})
        if labels is not None and s % 50 == 49:
            w.event(s, "labels", "label histogram since the previous one",
                    {"counts": {str(k): c * 50 for k, c in labels.items()}})
    for e in events:
        w.event(*e)
    w.meta("status", "finished")
    w.meta("steps", n)
    w.close()
    return folder


@pytest.fixture
def make_run(tmp_path):
    counter = iter(range(1000))

    def make(**kw):
        return write_run(tmp_path / f"run{next(counter)}", **kw)

    return make
