"""TD519 optimizer-misses-params: parameters added to (or unfrozen in) a model after its optimizer is built."""

from __future__ import annotations

import ast
import re

from ..flow import helper_function, is_module_class, local_function
from ..registry import Hit, lint_rule
from ..source import call_name, may_be, segment, text
from ..stray_params import local_strays, stray_modules
from ..tensor_attrs import plain_tensor_attrs
from ..walk import walk


@lint_rule(
    "optimizer-misses-params", "TD519", "error",
    "a layer is added to the model (or frozen parameters are unfrozen) after the optimizer was built from its parameters",
    needles=[("optim",), ("parameters()",)],
    fix="build (or rebuild) the optimizer after the model is complete, or add the new parameters with "
        "optimizer.add_param_group({'params': layer.parameters()})",
    confirm="check that every trainable parameter is in the optimizer: "
            "{id(p) for g in opt.param_groups for p in g['params']} >= {id(p) for p in model.parameters() "
            "if p.requires_grad}",
)
def check(m):
    """What it detects: in one function (or at module level), an optimizer built from
    `model.parameters()` (`torch.optim.*`, or any optimizer class whose name ends in a
    known optimizer name) followed by an assignment of a new layer to that model
    (`model.fc = nn.Linear(512, 10)`, `self.head = Head()` after
    `self.opt = Adam(self.parameters())`), or an optimizer built from only the trainable
    parameters (`filter(lambda p: p.requires_grad, ...)`, `[p for p in ... if
    p.requires_grad]`) followed by unfreezing (`p.requires_grad = True`,
    `requires_grad_()`); or the model re-bound, after the optimizer, to a copy whose layers
    were replaced (`model = ModuleValidator.fix(model)` for Opacus,
    `nn.SyncBatchNorm.convert_sync_batchnorm(model)`, `prepare_qat`, `fuse_modules`,
    `copy.deepcopy(model)`), also in another method of the class when the optimizer lives
    on `self`; a new layer assigned to `self.model.x` in another method than the
    `__init__` that built the optimizer; a call that adds parameters to the model in place
    after the optimizer (`model.add_adapter(...)`, `model.resize_token_embeddings(n)`,
    `add_module`, `register_parameter`); and, at module level, the model name bound to a
    new model (`rnn = CharRNN(...)` again) with a training step still to come; and a module
    class of the file that owns parameters (a loss with learned weights or its own
    classifier) kept on an object that is not a module (`self.loss = JointLoss(...)` in a
    Trainer that calls backward) and called, whose parameters no optimizer takes and that
    is never passed on (flagged at that assignment), or a local one (`criterion =
    SplitCrossEntropyLoss(...)` called in the training function) that the optimizer's
    arguments never mention, even through a list built for it (flagged at the optimizer);
    and, after the optimizer, a call of a model method (`model.quant.init_range(lo, hi)`)
    that binds a new `nn.Parameter` or layer to `self` (flagged at that binding); and a
    module class whose `__init__` keeps a random draw as a plain tensor attribute
    (`self.keys = torch.randn(n, d)`, not `nn.Parameter`, not a buffer) that another method
    reads: `parameters()` never yields it (flagged at that assignment). Not flagged when a new optimizer is built, or `add_param_group`
    is called, after the change. The finding points at the new layer's assignment, or at
    the `requires_grad = True` line (the `requires_grad_()` call) that unfreezes.

    Why it happens: an optimizer holds the parameter tensors it was given. A layer
    assigned later has new parameters the optimizer never sees, so they keep their random
    initialisation: a fine-tuning run with a replaced head trains only the frozen-looking
    body or nothing at all, and the loss barely moves (cause `params-not-updated`). Unfrozen
    parameters that were filtered out at construction likewise never update.

    Example:
        model = torchvision.models.resnet18(weights="DEFAULT")
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        model.fc = nn.Linear(512, 10)                    # not in the optimizer

    How to fix:
        model.fc = nn.Linear(512, 10)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)   # after the model is complete
    """
    opts = []
    for site in m.w.calls:
        call = site.node
        owner, filtered = _optimizer_of(m, call)
        if owner:
            opts.append((site, call, owner, filtered))
    if not opts:
        return
    yield from stray_modules(m, [c for _, c, _, _ in opts])
    yield from plain_tensor_attrs(m)
    yield from local_strays(m, [s for s, _, _, _ in opts])
    bodies: dict[int, list] = {}
    lines = None
    for site, call, owner, filtered in opts:
        hit = _rebuilt_model(m, site, call, owner) or _new_instance(m, site, call, owner) \
            or (_method_rebinds(m, site, call, owner) if not filtered else None)
        if hit is not None:
            yield hit
            continue
        if not filtered and owner.startswith("self.") and site.ctx.func is not None:
            hit = _layer_in_other_method(m, site, call, owner)
            if hit is not None:
                yield hit
                continue
        # cheap text test before walking the scope: a later `owner.x = ...` or `requires_grad`
        if lines is None:
            lines = m.source.splitlines()
        later_text = b"\n".join(lines[(call.end_lineno or call.lineno):])
        if filtered and b"requires_grad" not in later_text:
            continue
        if not filtered and not re.search(rb"(?m)^[ \t]*" + re.escape(owner.encode()) + rb"\.(\w+[ \t]*=(?!=)|("
                                          + "|".join(_ADDS).encode() + rb")\()", later_text):
            continue
        fn = site.ctx.func
        scope = fn if fn is not None else m.tree
        nodes = bodies.get(id(scope))
        if nodes is None:
            nodes = bodies[id(scope)] = [n for n in walk(scope) if isinstance(n, (ast.Assign, ast.Call, ast.For))]
        yield from _late_changes(m, call, owner, filtered, nodes)


def _late_changes(m, call: ast.Call, owner: str, filtered: bool, nodes: list):
    """Hits for the statements of ``nodes`` after the optimizer ``call`` that add a layer to
    ``owner`` or unfreeze parameters, unless an optimizer is built (or a group added) later."""
    end = call.end_lineno or call.lineno
    later = [n for n in nodes if n.lineno > end]
    rebuilt = [n.lineno for n in later if isinstance(n, ast.Call) and _regroups(m, n)]
    for n in later:
        if any(r > n.lineno for r in rebuilt):
            continue
        if not filtered and isinstance(n, ast.Assign) and _adds_layer(m, n, owner):
            yield Hit(n, f"a new layer is assigned to `{owner}` after the optimizer (line {call.lineno}) was built "
                         f"from `{owner}.parameters()`: its parameters are not in the optimizer and never train; "
                         "build the optimizer after the model is complete")
        elif not filtered and isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and n.func.attr in _ADDS and text(n.func.value) == owner:
            yield Hit(n, f"`{text(n.func)}()` adds new parameters to `{owner}` after the optimizer (line "
                         f"{call.lineno}) was built from `{owner}.parameters()`: they are not in the optimizer and "
                         "never train; build the optimizer after this call")
        elif filtered and _unfreezes(n, owner) is not None:
            yield Hit(_unfreezes(n, owner), f"parameters are unfrozen after the optimizer (line {call.lineno}) was built from the "
                         "trainable parameters only: the unfrozen ones are not in the optimizer and never train; "
                         "rebuild the optimizer or add_param_group")


# Methods that add parameters to a module in place: torch's own, adapter-hub / transformers'
# `add_adapter`, and `resize_token_embeddings` (a new embedding matrix, not the old one resized).
_ADDS = ("add_module", "register_parameter", "register_module", "add_adapter", "resize_token_embeddings")
_OPT_NAMES = ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam", "ASGD", "LBFGS",
              "Rprop", "SparseAdam", "Lion", "Adafactor", "LAMB", "Lamb", "LARS", "SGDW")


def _optimizer_of(m, call: ast.Call) -> tuple[str, bool]:
    """(text of the model whose parameters it takes, built from a requires_grad filter?) or ('', False)."""
    if not call.args and not call.keywords or not may_be(call, lambda n: n.endswith(_OPT_NAMES)):
        return "", False
    c = m.callee(call)
    if c[0] != "fn":
        return "", False
    last = c[1].rsplit(".", 1)[-1]
    if not (c[1].startswith("torch.optim.") and last[:1].isupper() or last.endswith(_OPT_NAMES)) \
            or "lr_scheduler" in c[1]:
        return "", False
    arg = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "params"), None)
    if arg is None:
        return "", False
    if _is_parameters(arg):
        return text(arg.func.value), False
    if isinstance(arg, ast.Call) and call_name(arg) == "filter" and len(arg.args) == 2 and _is_parameters(arg.args[1]):
        return text(arg.args[1].func.value), _mentions_requires_grad(arg.args[0])
    if isinstance(arg, (ast.ListComp, ast.GeneratorExp)) and len(arg.generators) == 1:
        g = arg.generators[0]
        if _is_parameters(g.iter) and any(_mentions_requires_grad(i) for i in g.ifs):
            return text(g.iter.func.value), True
    return "", False


def _regroups(m, call: ast.Call) -> bool:
    """``call`` builds an optimizer from a model's parameters or adds a parameter group: what
    makes a later layer or unfreezing reach the optimizer."""
    return bool(_optimizer_of(m, call)[0]) or call_name(call) == "add_param_group"


def _is_parameters(e) -> bool:
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "parameters" \
        and not e.args and bool(text(e.func.value))


def _mentions_requires_grad(e) -> bool:
    return any(isinstance(x, ast.Attribute) and x.attr == "requires_grad" for x in walk(e))


def _adds_layer(m, n: ast.Assign, owner: str) -> bool:
    if len(n.targets) != 1 or not isinstance(n.targets[0], ast.Attribute) or text(n.targets[0].value) != owner:
        return False
    v = n.value
    if not isinstance(v, ast.Call):
        return False
    k = m.kind(v)
    if isinstance(k, tuple):
        if k[0] == "seq":
            return True
        if k[0] == "local":
            return is_module_class(m, k[1])
        if k[0] == "inst" and k[1].startswith("torch.nn.") and k[1][9:10].isupper() and not k[1].endswith("Loss") \
                and k[1] not in _NO_PARAMS:
            return True
    return False


_NO_PARAMS = frozenset("torch.nn.ReLU torch.nn.Identity torch.nn.Dropout torch.nn.Softmax torch.nn.Sigmoid "
                       "torch.nn.Tanh torch.nn.GELU torch.nn.Flatten torch.nn.LogSoftmax torch.nn.MaxPool2d "
                       "torch.nn.AdaptiveAvgPool2d torch.nn.AvgPool2d torch.nn.Upsample torch.nn.SiLU".split())


def _unfreezes(n, owner: str):
    """The statement that unfreezes: ``p.requires_grad = True`` in ``for p in
    model.x.parameters():`` (the assignment), or ``model.x.requires_grad_()``; else None."""
    mine = lambda t: t == owner or t.startswith(owner + ".")  # noqa: E731
    if isinstance(n, ast.For) and isinstance(n.iter, ast.Call) and isinstance(n.iter.func, ast.Attribute) \
            and n.iter.func.attr in ("parameters", "named_parameters") and mine(text(n.iter.func.value)):
        return next((x for b in n.body for x in walk(b) if isinstance(x, ast.Assign)
                     and isinstance(x.value, ast.Constant) and x.value.value is True
                     and any(isinstance(t, ast.Attribute) and t.attr == "requires_grad" for t in x.targets)), None)
    if isinstance(n, ast.Call) and call_name(n) == "requires_grad_" and mine(text(n.func.value)):
        a = n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == "requires_grad"), None)
        return n if a is None or isinstance(a, ast.Constant) and a.value is True else None
    return None


# functions that return the model with layers replaced by new ones (new parameter tensors);
# `.to()`, `torch.compile`, DDP and DataParallel keep the same parameters and are not here
_REBUILDS = frozenset({"fix", "convert_sync_batchnorm", "prepare_qat", "fuse_modules", "fuse_modules_qat",
                       "deepcopy", "replace_all_modules", "convert_batchnorm_modules"})
_REBUILD_BYTES = tuple(r.encode() for r in _REBUILDS)


def _class_methods(m, fn, call: ast.Call) -> list:
    """The other methods of ``fn``'s class, less those ``fn`` calls before ``call`` (a
    ``self.convert()`` before the optimizer is built is fine)."""
    cls = next((c for c in walk(m.tree) if isinstance(c, ast.ClassDef) and fn in c.body), None)
    methods = [f for f in (cls.body if cls is not None else []) if isinstance(f, ast.FunctionDef)]
    before = {x.func.attr for x in walk(fn) if isinstance(x, ast.Call) and x.lineno < call.lineno
              and isinstance(x.func, ast.Attribute) and text(x.func.value) == "self"}
    return [f for f in methods if f is not fn and f.name not in before and f.name != "__init__"]


def _layer_in_other_method(m, site, call: ast.Call, owner: str):
    """``self.model.classifier = nn.Sequential(...)`` in another method of the class whose
    ``__init__`` built ``self.optimizer`` from ``self.model.parameters()``, with no optimizer
    built (or group added) after it in that method: a Hit there, else None."""
    fn = site.ctx.func
    if fn.name != "__init__" or owner.encode() + b"." not in m.source:
        return None
    methods = _class_methods(m, fn, call)
    if not any(_steps(f) for f in methods):
        return None
    for f in methods:
        nodes = _own_nodes(f)
        for n in nodes:
            if isinstance(n, ast.Assign) and _adds_layer(m, n, owner) and not any(
                    isinstance(x, ast.Call) and x.lineno > n.lineno
                    and _regroups(m, x) for x in nodes):
                return Hit(n, f"a new layer is assigned to `{owner}` in `{f.name}()`, after `__init__` built the "
                              f"optimizer (line {call.lineno}) from `{owner}.parameters()`: its parameters are not "
                              "in the optimizer and never train; rebuild the optimizer (or add_param_group) here")
    return None


def _method_rebinds(m, site, call: ast.Call, owner: str):
    """After the optimizer, the same function calls a method of one of ``owner``'s module
    classes (``model.act_q.init_range(lo, hi)``) whose body binds a new parameter or layer
    to ``self`` (``self.scale = nn.Parameter(...)``), with no optimizer built after the call:
    a Hit at that binding (the optimizer keeps the old tensor)."""
    scope = site.ctx.func if site.ctx.func is not None else m.tree
    end = call.end_lineno or call.lineno
    later = [x for x in _own_nodes(scope) if isinstance(x, ast.Call) and x.lineno > end]
    for x in later:
        f = x.func
        if not (isinstance(f, ast.Attribute) and (text(f.value) == owner or (text(f.value) or "").startswith(owner + "."))):
            continue
        meth = helper_function(m, x)
        if meth is None or meth.name == "__init__" or any(_regroups(m, y) for y in later if y.lineno > x.lineno):
            continue
        cls = next((c for c in m.w.classes.values() if meth in c.body), None)
        if cls is None or not is_module_class(m, cls):
            continue
        for n in _own_nodes(meth):
            if isinstance(n, ast.Assign) and _adds_layer(m, n, "self"):
                return Hit(n, f"`{text(n.targets[0])}` is bound to a new parameter in `{meth.name}()`, which runs "
                              f"after the optimizer (line {call.lineno}) was built from `{owner}.parameters()`: "
                              f"the optimizer keeps updating the old tensor and this one never trains; write into "
                              f"the existing one (`{text(n.targets[0])}.data.copy_(...)`) or build the optimizer after")
    return None


def _new_instance(m, site, call: ast.Call, owner: str):
    """At module level, ``model = Net()`` again after ``opt = SGD(model.parameters())`` with a
    training step still to come (a step, or a call of a function of the file that steps)
    and no optimizer built after it: the optimizer keeps the first model's tensors."""
    if site.ctx.func is not None or "." in owner:
        return None
    nodes = _own_nodes(m.tree)
    if any(isinstance(n, ast.Assign) and n.value is call and any(
            isinstance(t, ast.Attribute) and text(t.value) == owner for t in n.targets) for n in nodes):
        return None  # model.optimizer = SGD(model.parameters()): a new model brings its own optimizer
    end = call.end_lineno or call.lineno
    for n in nodes:
        if not (isinstance(n, ast.Assign) and n.lineno > end and len(n.targets) == 1
                and isinstance(n.targets[0], ast.Name) and n.targets[0].id == owner and isinstance(n.value, ast.Call)):
            continue
        k = m.kind(n.value)
        if not (isinstance(k, tuple) and (k[0] == "local" and is_module_class(m, k[1]) or k[0] == "seq")):
            continue
        later = [x for x in nodes if isinstance(x, ast.Call) and x.lineno > n.lineno]
        if any(_regroups(m, x) for x in later):
            continue
        if any(call_name(x) == "step" or (f := local_function(m, x)) is not None and _steps(f) for x in later):
            return Hit(n, f"`{owner}` is bound to a new model after the optimizer (line {call.lineno}) was built "
                          f"from `{owner}.parameters()`: the optimizer updates the first model's tensors, and "
                          f"this one never trains; build the optimizer after this line")
    return None


def _rebuilt_model(m, site, call: ast.Call, owner: str):
    """``owner = fix(owner)`` after the optimizer ``call`` (same function, or any other method of
    the class when ``owner`` is an attribute of ``self``), with no optimizer built after it in
    that function and an optimizer step still to come: a Hit at the re-binding, else None."""
    if not any(r in m.source for r in _REBUILD_BYTES):
        return None  # no rebuilding call in the file: skip walking every method (a tenth of lint's time)
    fn = site.ctx.func
    scopes = [fn if fn is not None else m.tree]
    if owner.startswith("self.") and fn is not None:
        methods = _class_methods(m, fn, call)
        scopes += methods
        stepped = any(_steps(f) for f in methods + [fn])
    for scope in scopes:
        same = scope is scopes[0]
        for n in _own_nodes(scope):
            if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and text(n.targets[0]) == owner
                    and isinstance(n.value, ast.Call) and call_name(n.value) in _REBUILDS and n.value.args
                    and text(n.value.args[0]) == owner) or (same and n.lineno <= (call.end_lineno or call.lineno)):
                continue
            later = [x for x in _own_nodes(scope) if isinstance(x, ast.Call) and x.lineno > n.lineno]
            if any(_regroups(m, x) for x in later):
                continue  # the optimizer is rebuilt after it
            if not (any(call_name(x) == "step" for x in later) or _hands_out(scope, call) if same else stepped):
                continue  # no training step after it (a fuse or a copy for export)
            return Hit(n, f"`{owner}` is replaced by `{call_name(n.value)}(...)`'s copy, whose new layers have new "
                          f"parameters, after the optimizer (line {call.lineno}) was built from "
                          f"`{owner}.parameters()`: the optimizer keeps updating the old tensors; build it after "
                          "this line")
    return None


def _hands_out(scope, call: ast.Call) -> bool:
    """A builder that returns the optimizer ``call`` made (``return model, optimizer``): the
    training that steps it happens in its caller."""
    names = {t.id for n in walk(scope) if isinstance(n, ast.Assign) and n.value is call
             for t in n.targets if isinstance(t, ast.Name)}
    return bool(names) and any(isinstance(r, ast.Return) and r.value is not None and any(
        isinstance(x, ast.Name) and x.id in names for x in walk(r.value)) for r in walk(scope))


def _steps(fn) -> bool:
    return any(isinstance(x, ast.Call) and call_name(x) == "step" for x in walk(fn))


def _own_nodes(scope):
    """The nodes of ``scope`` outside the functions and classes defined in it (a module's
    top level does not see a function's own locals of the same name)."""
    out, todo = [], list(ast.iter_child_nodes(scope))
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        out.append(n)
        todo.extend(ast.iter_child_nodes(n))
    return out
