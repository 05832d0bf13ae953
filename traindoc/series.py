"""Every series the monitor records, defined once: its name (or pattern), unit, when it is
recorded and which monitor component produces it.

The store keeps any name; this schema is what ``traindoc run`` writes, what the rules may
read from a traindoc run (importers map other tools' logs onto the same names), and the
table of docs/monitor.md is generated from it (``tests/test_series.py`` checks both the
table and that a monitored run writes nothing outside it). Add a measurement here and in
its component; nothing else needs to know the name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Series:
    name: str  # exact, or a pattern with {param}, {module}, {stat}, {i}, {group}, {fn}, {k}
    unit: str
    when: str
    producer: str  # the monitor component (traindoc/monitor/)
    what: str


EVERY = "every step"
SAMPLED = "sampled steps"

SCHEMA: tuple[Series, ...] = (
    Series("loss", "loss", EVERY, "Optimizers", "the value `backward()` was called on, unscaled under a GradScaler, "
           "summed over gradient-accumulation micro-batches"),
    Series("loss/opt{i}", "loss", EVERY, "Optimizers", "the same for a further optimizer with its own `backward()` (GANs)"),
    Series("loss/ce", "nats", "every step with a `cross_entropy`/`nll_loss` call", "LossFns",
           "the mean of the step's classification-loss outputs: what the rules compare with ln C when the "
           "backpropagated loss holds other terms (a KL, a second head)"),
    Series("loss/skipped", "loss", "when the script skipped a non-finite loss", "LossFns",
           "a loss function's non-finite output that was never backpropagated (`if torch.isnan(loss): continue`)"),
    Series("loss/eval", "loss", "after evaluation", "LossFns", "mean of the losses computed under `no_grad`/`eval()` "
           "since the previous step, for the first evaluation dataset (a `reduction=\"sum\"` call divided by its "
           "number of terms)"),
    Series("loss/eval{k}", "loss", "after evaluation", "LossFns", "the same for the k-th further evaluation dataset "
           "(train/validation/test splits apart, kept across epochs)"),
    Series("lr/{i}/{group}", "learning rate", EVERY, "Optimizers", "learning rate of every param group of every optimizer"),
    Series("grad_norm", "L2 norm", EVERY, "Recorder", "global gradient norm (from the per-parameter norms)"),
    Series("grad_norm/{param}", "L2 norm", EVERY, "Optimizers", "per-parameter gradient norm (one fused `torch._foreach_norm`). "
           "With no model and no optimizer (raw tensors updated by hand, `p -= lr * p.grad`) the parameters are the "
           "loss graph's leaf tensors, named `graph.param0` (the input side) upward, their shapes in the meta "
           "`graph_params`; the graph is walked again only when one of them is freed"),
    Series("grad_nonfinite", "count", EVERY, "Recorder", "parameters whose gradient holds NaN/Inf"),
    Series("grad_norm_preclip", "L2 norm", "when the script clips", "Optimizers", "the norm `clip_grad_norm_` returned"),
    Series("grad_norm_preclip/opt{i}", "L2 norm", "when the script clips", "Optimizers", "the same for a further optimizer"),
    Series("grad_tensors", "count", SAMPLED, "Optimizers", "optimizer tensors that had a gradient at `step()` (0 on every "
           "step: the backpropagated loss does not reach them)"),
    Series("grad_tensors/opt{i}", "count", SAMPLED, "Optimizers", "the same for a further optimizer"),
    Series("grad_carried", "L2 norm", SAMPLED, "BackwardClock", "what `.grad` held (first 4 tensors of the first optimizer) "
           "when the first backward after a step or a `zero_grad()` began: 0 when gradients are cleared"),
    Series("grad_carried_ref", "L2 norm", SAMPLED, "BackwardClock", "the same tensors' gradient at `step()`"),
    Series("grad_underflow/{param}", "fraction", SAMPLED, "Optimizers", "gradient values that would flush to zero in float16"),
    Series("accum/backwards", "count", "sampled, with gradient accumulation", "Optimizers", "backwards in the step"),
    Series("accum/scale", "ratio", "sampled, with gradient accumulation", "Optimizers", "what was backpropagated over "
           "what the loss functions returned (1/k when each micro-batch loss is divided by k)"),
    Series("loss/terms", "count", "sampled, a loss of 8+ loss-function calls", "Optimizers",
           "loss-function calls added into the step's one backpropagated loss (a loss per time step)"),
    Series("loss/terms_scale", "ratio", "sampled, a loss of 8+ loss-function calls", "Optimizers",
           "what was backpropagated over (calls x their mean value): 1 when summed, 1/T when divided by their number"),
    Series("update_ratio", "ratio", SAMPLED, "Optimizers", "median update-to-weight ratio over the parameters"),
    Series("update_ratio/{param}", "ratio", SAMPLED, "Optimizers", "per-parameter |update| / |weight|"),
    Series("param_norm", "L2 norm", SAMPLED, "Optimizers", "global parameter norm"),
    Series("param_norm/{param}", "L2 norm", SAMPLED, "Optimizers", "per-parameter norm (for a raw-tensor "
           "network updated by hand: graph.param0, ... of the loss graph's leaves)"),
    Series("act/{module}/{stat}", "per statistic", SAMPLED, "Models", "activation statistics of each leaf module: mean, "
           "std, absmax, zero, dead (ReLU), saturated (sigmoid/tanh), fp16_over (beyond the float16 range); for "
           "activations applied as functions, read from the autograd graph: {module} is sigmoid#1, relu#2, ... "
           "(dead, saturated only)"),
    Series("time_grad/{module}", "ratio", SAMPLED, "Models", "for a weighted module one forward calls 8+ times (a "
           "cell applied per time step from a Python loop, a shared block): the gradient norm at its last call's "
           "output over its first call's (backpropagation through the calls; the first backward of the step only); "
           "vanishing-gradient reads it"),
    Series("out/absmax", "max |x|", SAMPLED, "Models", "the largest absolute value of the model's own output (its first "
           "tensor, or a Hugging Face output's `logits`), one reduction per training forward; data-outlier weighs the "
           "loss against it (a loss the outputs cannot explain says the targets hold values the model never predicts)"),
    Series("in/absmax", "max |x|", EVERY, "Models", "the largest absolute value over the model's float tensor "
           "arguments (the first four) in the step's first training forward, one reduction: data-unnormalized reads the "
           "inputs' scale here rather than off a first layer (a ReLU RNN's output sums its inputs over time), "
           "data-outlier lays gradient spikes against it"),
    Series("scaler/scale", "scale", "with a GradScaler", "Scalers", "the loss scale"),
    Series("scaler{i}/scale", "scale", "with several GradScalers", "Scalers", "the loss scale of the i-th scaler"),
    Series("scaler/skipped", "flag", "with a GradScaler", "Recorder", "1 on a step the scaler skipped"),
    Series("loss_fn/{fn}/target_{k}", "value", "once per loss function", "LossFns", "the target's min, max and the share of "
           "integral values (k: min, max, integral): class indices given as floats, a target outside the loss's range; "
           "for a (N, K) regression target also k: colscale, the RMS of its largest column over its median column's "
           "(targets on different scales)"),
    Series("loss_fn/{fn}/input_{k}", "value", "once per logit loss", "LossFns", "the logits' min, max and share of "
           "exact zeros (k: min, max, zero) given to cross_entropy / binary_cross_entropy_with_logits: a ReLU before "
           "the loss; for a regression loss (MSE, L1, Huber) the same, and the largest |row sum - 1| of a (N, C) "
           "input (k: rowsum_dev): softmax probabilities regressed onto a target, or given to cross_entropy "
           "(summed over its class dimension 1)"),
    Series("loss_fn/{fn}/pred_pos", "fraction", SAMPLED, "LossFns", "for a binary cross-entropy: the share of "
           "elements the model predicts positive (logit > 0, probability > 0.5), first call of the step"),
    Series("loss_fn/{fn}/target_pos", "fraction", SAMPLED, "LossFns", "and the share of positive targets (>= 0.5) "
           "in the same call: a model that never predicts the rare class (class-imbalance)"),
    Series("time/step", "seconds", EVERY, "Recorder", "wall time between optimizer steps"),
    Series("time/data", "seconds", EVERY, "Recorder", "the part of it spent waiting on the DataLoader"),
    Series("sampled", "flag", SAMPLED, "Recorder", "1 on a sampled step"),
)

_FIELDS = {"param": r".+", "module": r".+", "stat": r"[a-z0-9_]+", "i": r"\d+", "group": r"\d+", "fn": r"[a-z0-9_]+",
           "k": r"[a-z0-9_]+"}


@lru_cache(maxsize=None)
def _patterns() -> tuple[tuple[re.Pattern, Series], ...]:
    out = []
    for s in SCHEMA:
        rx = re.escape(s.name)
        for field, sub in _FIELDS.items():
            rx = rx.replace(re.escape("{" + field + "}"), sub)
        out.append((re.compile(rx + r"\Z"), s))
    return tuple(out)


def lookup(name: str) -> Series | None:
    """The schema entry a recorded name belongs to (None: not a monitor series)."""
    for rx, s in _patterns():
        if rx.match(name):
            return s
    return None


def markdown_table() -> str:
    """The table of docs/monitor.md."""
    rows = ["| series | when | what |", "|---|---|---|"]
    rows += [f"| `{s.name}` | {s.when} | {s.what} ({s.unit}; {s.producer}) |" for s in SCHEMA]
    return "\n".join(rows)
