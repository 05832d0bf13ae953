"""The recorded model's structure (``model/*`` metadata): which modules there are, in
which order, and which of them own the parameters the rules speak of."""

from __future__ import annotations

import re

# parameter-free layers: param_modules skips them (they have no weights to blame)
_NO_PARAMS = ("ReLU", "ReLU6", "GELU", "SiLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Dropout", "Identity",
              "Flatten", "MaxPool", "AvgPool", "AdaptiveAvgPool", "LeakyReLU", "ELU", "Hardtanh", "Hardsigmoid")


_RAW = re.compile(r"opt(\d+)\.group(\d+)\.param(\d+)|graph\.param(\d+)")


def module_order(run) -> list[tuple[str, str]]:
    """(module name, class) of every module of every recorded model, in definition
    order (the order ``named_modules`` gave), which is the forward order for the usual
    Sequential/ModuleList models."""
    out = []
    for key, m in run.meta.items():
        if key.startswith("model/") and isinstance(m, dict):
            for row in m.get("modules", []):
                out.append((str(row[0]), str(row[1])))
    return out


def module_sizes(run) -> dict[str, int]:
    """Module name -> the number of its own parameters (weight and bias), from the model
    summary the monitor recorded."""
    out = {}
    for key, m in run.meta.items():
        if key.startswith("model/") and isinstance(m, dict):
            for row in m.get("modules", []):
                if len(row) > 2 and isinstance(row[2], (int, float)):
                    out[str(row[0])] = int(row[2])
    return out


def raw_param_shapes(run) -> dict[str, tuple[int, ...]]:
    """Shape of every parameter no model names (``opt0.group1.param3``: raw tensors handed
    to the optimizer; ``graph.param3``: the loss graph's leaves when no optimizer stepped),
    from the optimizer summaries (``shapes`` per group) and the ``graph_params`` meta."""
    out = {name: tuple(int(d) for d in shape) for name, shape in optimizer_entries(run, "shapes")}
    g = run.meta.get("graph_params")  # no optimizer: the loss graph's leaves, input side first
    for pi, shape in enumerate(g.get("shapes", []) if isinstance(g, dict) else []):
        out[f"graph.param{pi}"] = tuple(int(d) for d in shape)
    return out


def optimizer_entries(run, key: str) -> list[tuple[str, object]]:
    """(``opt0.group1.param3``, value) for each entry of the per-parameter list ``key``
    (``shapes``, ``gains``) of every optimizer summary's groups: the raw tensors handed to
    the optimizers, named as their series are."""
    return [(f"opt{o.get('index', 0)}.group{gi}.param{pi}", v)
            for k, o in run.meta.items() if k.startswith("optimizer/") and isinstance(o, dict)
            for gi, g in enumerate(o.get("groups", [])) if isinstance(g, dict)
            for pi, v in enumerate(g.get(key) or [])]


def _raw_key(pname: str) -> tuple[int, ...] | None:
    m = _RAW.fullmatch(pname)
    return tuple(int(d) if d is not None else -1 for d in m.groups()) if m else None


def _param_module(pname: str) -> str:
    return pname.rsplit(".", 1)[0] if "." in pname else ""


def weight_params(names: list[str], order: list[tuple[str, str]],
                  raw_shapes: dict[str, tuple[int, ...]] | None = None) -> list[str]:
    """The weight matrices (not biases, not norms) among ``names`` in forward order. Raw
    tensors (``opt0.group0.param3``) count where ``raw_shapes`` says they have two or more
    dimensions, in the order the optimizer holds them (after every named weight)."""
    pos = {n: i for i, (n, _) in enumerate(order)}
    cls = dict(order)
    keep, raw = [], []
    for p in names:
        if (k := _raw_key(p)) is not None:
            if len((raw_shapes or {}).get(p, ())) >= 2:
                raw.append((k, p))
            continue
        mod = _param_module(p)
        leaf = p.rsplit(".", 1)[-1]
        if "bias" in leaf or "norm" in cls.get(mod, "").lower() or cls.get(mod, "").startswith("BatchNorm"):
            continue
        if "weight" in leaf or leaf in ("pos",):
            keep.append(p)
    return sorted(keep, key=lambda p: (pos.get(_param_module(p), 10**6), p)) + [p for _, p in sorted(raw)]


def param_modules(run) -> list[tuple[str, str]]:
    """(module, class) of the modules that own parameters, in forward order: Linear,
    Conv, Embedding, RNN... (containers and parameter-free activations dropped)."""
    mods = module_order(run)
    names = [m for m, _ in mods]
    out = []
    for m, c in mods:
        if c.startswith(_NO_PARAMS):
            continue
        is_parent = any(n.startswith(m + ".") for n in names) if m else True
        if not is_parent:
            out.append((m, c))
    if not out and len(mods) == 1 and not mods[0][1].startswith(_NO_PARAMS):
        # the model is one layer (``model = nn.Linear(1, 1)``): its statistics are recorded
        # under the model's own name (``act/model/absmax``)
        name = next((str(m.get("name")) for k, m in run.meta.items() if k.startswith("model/")
                     and isinstance(m, dict) and m.get("name")), "model")
        out.append((name, mods[0][1]))
    return out


def last_module_class(run) -> str:
    """The class of the last leaf module of the (first) model: Softmax/Sigmoid there
    means the model outputs probabilities, not logits."""
    mods = module_order(run)
    names = [m for m, _ in mods]
    leaves = [(m, c) for m, c in mods if not any(n.startswith(m + ".") for n in names if m) and m]
    return leaves[-1][1] if leaves else ""
