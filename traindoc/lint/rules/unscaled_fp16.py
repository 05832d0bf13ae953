"""TD507 unscaled-fp16: float16 autocast or ``.half()`` training without a GradScaler."""

from __future__ import annotations

import ast

from .. import names as N
from ..grad_mode import eval_context
from ..registry import Hit, lint_rule
from ..source import short, text
from ..training import is_backward, parameter_owners
from ..walk import walk

# A call of any of these means loss scaling is handled (torch, apex, DeepSpeed, custom).
_SCALERS = ("GradScaler", "ShardedGradScaler", "LossScaler", "DynamicLossScaler", "scale_loss", "FP16_Optimizer",
            "FP16Optimizer", "Fp16Optimizer", "Fp16OptimizerHook", "wrap_fp16_model")
_SCALE_KEYWORDS = frozenset({"loss_scale", "static_loss_scale", "dynamic_loss_scale", "init_scale"})
_SCALING_WRAPPERS = ("accelerator", "fabric", "optim", "engine")
_MODEL_NAMES = frozenset({"model", "net", "module", "network", "generator", "discriminator", "encoder", "decoder"})


@lint_rule(
    "unscaled-fp16", "TD507", "warning",
    "float16 autocast or .half() training without a GradScaler: small gradients flush to zero, large values overflow",
    needles=[("autocast", "half", "float16"), ("backward",)],
    fix="wrap the loss: scaler = torch.amp.GradScaler(); scaler.scale(loss).backward(); scaler.step(opt); "
        "scaler.update(); or train in bfloat16 (torch.autocast('cuda', dtype=torch.bfloat16)), which needs no scaler",
    confirm="count the gradients that are exactly 0 in float16 vs float32 for one batch, or watch for inf losses",
)
def check(m):
    """What it detects: a training script (it calls `backward()`) that runs the forward
    pass in float16, through `torch.autocast("cuda")` / `torch.cuda.amp.autocast()` /
    `autocast(dtype=torch.float16)`, by converting the model with `model.half()` /
    `model.to(torch.float16)` / `model.type(torch.cuda.HalfTensor)` (also after
    `.to(device)` / `.cuda()` in the same chain), or by making float16 the default
    (`torch.set_default_dtype(torch.float16)`,
    `torch.set_default_tensor_type(torch.cuda.HalfTensor)`), and never creates a
    `GradScaler` (nor uses apex or DeepSpeed loss scaling, nor backpropagates through
    `accelerator.backward` / `fabric.backward`, which scale the loss under fp16 mixed
    precision, nor `optimizer.backward(loss)` / `engine.backward(loss)`, apex's
    `FP16_Optimizer` and DeepSpeed, nor passes a `loss_scale=` / `static_loss_scale=`
    anywhere). bfloat16 autocast, CPU autocast (bfloat16 by default), autocast with a
    dtype or device the rule cannot read, inference scripts, and autocast in evaluation
    code (under `torch.no_grad()`, in a function named like `log_validation`, `evaluate`,
    `sample`) are not flagged. The autocast's device and dtype are read through names
    (`dtype = torch.float16`, `device = torch.device("cuda")` then
    `device_type=device.type` or `str(device)`, also `"cuda" if torch.cuda.is_available()
    else "cpu"`: the CUDA run is the one in float16). Also flagged: a library model (`torchvision.models.*`,
    `timm.create_model`, `X.from_pretrained(...)`) converted with `.half()` /
    `.to(torch.half)` whose parameters an optimizer steps (a frozen float16 model is
    fine), and a batch cast with `x.half()` / `x.to(torch.float16)` that is fed to the
    model in the function that calls `backward()` (the model then runs in float16: a
    float32 one would refuse half inputs), when no float16 model or autocast is in sight.

    Why it happens: float16 has 5 exponent bits. Gradients below 6e-8 round to 0
    (cause `fp16-underflow`): with small losses or deep nets most of them do, and the
    weights stop moving; values above 65504 become inf (cause `fp16-overflow`). A
    GradScaler multiplies the loss by a large factor before backward, so gradients sit in
    float16's range, unscales them in float32 before the step, and skips the steps whose
    gradients overflowed. A `.half()` model also keeps its master weights in float16,
    where `w + lr * g` rounds away any update smaller than w / 2048.

    Example:
        with torch.autocast("cuda"):                     # float16 on CUDA by default
            loss = model(x, y)
        loss.backward()
        opt.step()

    How to fix:
        scaler = torch.amp.GradScaler("cuda")
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(x, y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        # or dtype=torch.bfloat16 (Ampere and newer), which needs no scaler
    """
    if _scales_loss(m):
        return
    back = next((s.node for s in m.w.calls if is_backward(m, s.node)), None)
    if back is None:
        return
    hits = [s for s in m.w.calls if _fp16(m, s.node) and not eval_context(m, s.ctx)]
    if not hits:
        # no float16 model or autocast in sight: a batch cast to half and fed to the model says it
        back_funcs = {id(s.ctx.func) for s in m.w.calls if is_backward(m, s.node)}
        hits = [s for s in m.w.calls if _half_input(m, s, back_funcs) and not eval_context(m, s.ctx)]
    for site in hits:
        # autocast around inference (validation images, sampling) was left out above: no gradient to scale
        how = _fp16(m, site.node) or _half_input(m, site, ())
        yield Hit(site.node, f"{how} in a training script (backward on line {back.lineno}) without a GradScaler: "
                             "gradients below 6e-8 flush to zero and values above 65504 overflow; "
                             "scale the loss with torch.amp.GradScaler or use bfloat16")


def _fp16(m, call: ast.Call) -> str:
    c = m.callee(call)
    if c[0] == "fn" and c[1] in N.AUTOCAST:
        return _autocast(m, c[1], call)
    if c[0] == "fn" and c[1] in _DEFAULT_DTYPE and call.args and _is_half(m, call.args[0]):
        # every float tensor and parameter created from here on is float16
        return f"`{c[1].rsplit('.', 1)[-1]}({ast.unparse(call.args[0])})` (float16 weights and activations)"
    if c[0] != "meth":
        return ""
    name, recv = c[1], _unchain(c[2])
    if name in ("half", "to", "type") and not _is_model(m, recv) and _library_model(m, recv) \
            and _optimized(m, recv) and _half_cast(m, name, call):
        return f"`{short(call)}` (float16 weights stepped by the optimizer)"
    if name == "half" and not call.args and _is_model(m, recv):
        return f"`{short(c[2])}.half()` (float16 weights and activations)"
    if name in ("to", "type") and _is_model(m, recv):
        dt = [kw.value for kw in call.keywords if kw.arg in ("dtype", "dst_type")] + list(call.args)
        if any(_is_half(m, _value(m, a)) for a in dt):
            arg = text(dt[0]) if len(dt) == 1 else "torch.float16"
            return f"`{short(c[2])}.{name}({arg})` (float16 weights and activations)"
    return ""


_DEFAULT_DTYPE = frozenset({"torch.set_default_dtype", "torch.set_default_tensor_type"})
_HALF_TYPES = frozenset({"HalfTensor", "torch.HalfTensor", "torch.cuda.HalfTensor"})


def _is_half(m, e) -> bool:
    """torch.float16 / torch.half, or a half tensor type (``torch.cuda.HalfTensor``, also as
    the string ``"torch.cuda.HalfTensor"``)."""
    if m.qualname(e) in N.FP16:
        return True
    if isinstance(e, ast.Constant) and isinstance(e.value, str):
        return e.value in _HALF_TYPES
    return text(e).rsplit(".", 1)[-1] == "HalfTensor"


def _unchain(e):
    """The module behind ``model.to(device).cuda()``: device moves return the module."""
    while (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute)
           and e.func.attr in ("to", "cuda", "cpu", "train") and not any(kw.arg == "dtype" for kw in e.keywords)):
        e = e.func.value
    return e


def _half_cast(m, name: str, call: ast.Call) -> bool:
    """``.half()``, ``.to(torch.float16)``, ``.to(dev, dtype=torch.half)``, ``.type(torch.HalfTensor)``."""
    if name == "half":
        return not call.args
    dt = [kw.value for kw in call.keywords if kw.arg in ("dtype", "dst_type")] + list(call.args)
    return any(_is_half(m, _value(m, a)) for a in dt)


def _value(m, e):
    """The one expression a name is bound to (``dtype = torch.float16``), else ``e``."""
    if isinstance(e, ast.Name):
        d = m.defs(e)
        if d and len(d) == 1 and isinstance(d[0], ast.expr):
            return d[0]
    return e


def _half_input(m, site, back_funcs) -> str:
    """``x.half()`` (or ``.to(torch.float16)``) of a batch fed to a model in the function that
    backpropagates: the model runs in float16 (a float32 model would refuse half inputs)."""
    call = site.node
    c = m.callee(call)
    if c[0] != "meth" or c[1] not in ("half", "to", "type") or back_funcs and id(site.ctx.func) not in back_funcs:
        return ""
    if _is_model(m, _unchain(c[2])) or not _half_cast(m, c[1], call):
        return ""
    key = ("fp16-fed", id(site.ctx.func))
    fed = m.memo.get(key)
    if fed is None:
        fed = m.memo[key] = set()
        for s in m.w.calls:
            if s.ctx.func is site.ctx.func and _is_model(m, s.node.func):
                for a in s.node.args:
                    fed.add(id(a))
                    if isinstance(a, ast.Name):
                        for d in m.defs(a) or ():
                            fed.add(id(d))
    if id(call) in fed:
        return f"`{short(call)}` fed to the model in the training step (float16 weights and activations)"
    return ""


_LIBRARY_MODELS = ("torchvision.models.", "timm.create_model", "transformers.", "diffusers.")


def _library_model(m, e) -> bool:
    """A model built by a library: ``torchvision.models.resnet18()``, ``timm.create_model``,
    ``X.from_pretrained(...)``, directly or through one name."""
    e = _value(m, e)
    e = _unchain(e)
    if not isinstance(e, ast.Call):
        return False
    q = m.qualname(e.func) or ""
    return q.startswith(_LIBRARY_MODELS) or q.endswith(".from_pretrained")


def _optimized(m, e) -> bool:
    """An optimizer is built over ``e.parameters()`` in the file."""
    t = text(e)
    if not t:
        return False
    for s in m.w.calls:
        q = m.qualname(s.node.func) or ""
        if q.startswith("torch.optim.") and q.count(".") == 2 and s.node.args \
                and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "parameters"
                        and text(n.func.value) == t for n in walk(s.node.args[0])):
            return True
    return False


def _autocast(m, q: str, call: ast.Call) -> str:
    kw = {k.arg: _value(m, k.value) for k in call.keywords if k.arg}
    en = kw.get("enabled")
    if isinstance(en, ast.Constant) and en.value is False:
        return ""
    if "dtype" in kw:
        return "float16 autocast" if m.qualname(_picked(m, kw["dtype"])) in N.FP16 else ""
    if q == "torch.cuda.amp.autocast":
        return "torch.cuda.amp.autocast() (float16 by default)"
    if q == "torch.cpu.amp.autocast":
        return ""  # bfloat16 by default
    dev = _value(m, call.args[0]) if call.args else kw.get("device_type")
    if len(call.args) >= 2 and m.qualname(_value(m, call.args[1])) in N.FP16:
        return "float16 autocast"
    if dev is not None and not isinstance(dev, ast.Constant) and _cuda(m, dev, 4):
        return 'autocast on CUDA (float16 by default there)'
    if isinstance(dev, ast.Constant) and dev.value == "cuda":
        return 'autocast("cuda") (float16 by default on CUDA)'
    if dev is not None and q in ("torch.autocast", "torch.amp.autocast", "torch.amp.autocast_mode.autocast") \
            and not _readable(m, dev, 4):
        # a device the file does not show (a caller's): autocast without a dtype is float16 on CUDA,
        # where such scripts train; a CPU run would be bfloat16, and the file never says which
        return "autocast on a device given by the caller, without a dtype (float16 on CUDA)"
    return ""


def _picked(m, e):
    """``{"float16": torch.float16, ...}[dtype]`` with ``dtype = "float16"``: the value the
    constant key picks (nanoGPT's ``ptdtype``), else ``e`` (through one name)."""
    e = _value(m, e)
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Dict):
        key = _value(m, e.slice)
        if isinstance(key, ast.Constant):
            for k, v in zip(e.value.keys, e.value.values):
                if isinstance(k, ast.Constant) and k.value == key.value:
                    return v
    return e


def _readable(m, e, depth: int) -> bool:
    """The device is spelled in the file (a string, ``torch.device("cpu")``, a conditional
    on cuda availability), not only a parameter or an attribute of a caller's object."""
    if depth < 0 or e is None:
        return False
    e = _value(m, e)
    if isinstance(e, ast.Constant):
        return True
    if isinstance(e, ast.IfExp):
        return True
    if isinstance(e, ast.Attribute) and e.attr == "type":
        return _readable(m, e.value, depth - 1)
    if isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords and (
            m.qualname(e.func) == "torch.device" or isinstance(e.func, ast.Name) and e.func.id == "str"):
        return _readable(m, e.args[0], depth - 1)
    return not isinstance(e, (ast.Name, ast.Attribute, ast.Call))


def _cuda(m, e, depth: int) -> bool:
    """The device ``e`` is "cuda" (or "cuda" on a machine that has one): through names,
    ``torch.device(...)``, ``.type``, ``str(...)`` and ``"cuda" if torch.cuda.is_available() else "cpu"``."""
    if depth < 0 or e is None:
        return False
    e = _value(m, e)
    if isinstance(e, ast.Constant):
        return isinstance(e.value, str) and e.value.split(":")[0] == "cuda"
    if isinstance(e, ast.IfExp):
        return _cuda(m, e.body, depth - 1) or _cuda(m, e.orelse, depth - 1)
    if isinstance(e, ast.Attribute) and e.attr == "type":
        return _cuda(m, e.value, depth - 1)
    if isinstance(e, ast.Call) and len(e.args) == 1 and not e.keywords and (
            m.qualname(e.func) == "torch.device" or isinstance(e.func, ast.Name) and e.func.id == "str"):
        return _cuda(m, e.args[0], depth - 1)
    return False


def _is_model(m, e) -> bool:
    k = m.kind(e)
    if isinstance(k, tuple):
        if k[0] in ("local", "seq"):
            return True
        if k[0] == "inst" and k[1].startswith("torch.nn.") and not k[1].endswith("Loss"):
            return True
    last = text(e).rsplit(".", 1)[-1]
    return last.lower() in _MODEL_NAMES or last in parameter_owners(m)  # unet.half() of a trained unet



def _scales_loss(m) -> bool:
    """A GradScaler (or apex/DeepSpeed loss scaling) is created or used: ``X.scale(loss)`` counts
    too, and so does ``accelerator.backward(loss)`` / ``fabric.backward(loss)``, which scale."""
    for site in m.w.calls:
        f = site.node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if name in _SCALERS or name == "scale" and isinstance(f, ast.Attribute) and "scaler" in text(f.value).lower():
            return True
        if any(k.arg in _SCALE_KEYWORDS for k in site.node.keywords):
            return True  # apex FP16_Optimizer(opt, static_loss_scale=128.0), mmcv's Fp16OptimizerHook(loss_scale=...)
        if name == "backward" and isinstance(f, ast.Attribute) and site.node.args \
                and any(w in text(f.value).lower() for w in _SCALING_WRAPPERS):
            # accelerate / Lightning Fabric / apex's optimizer.backward(loss) / DeepSpeed's engine.backward(loss)
            # scale the loss themselves under fp16
            return True
    return False
