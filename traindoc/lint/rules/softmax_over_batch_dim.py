"""TD541 softmax-over-batch-dim: a (log-)softmax over dim 0 whose result is then read per sample and class."""

from __future__ import annotations

import ast
import re

from .. import names as N
from ..flow import single_def
from ..per_sample import chained_pick, per_sample_reads, soft_cross_entropy
from ..registry import Hit, lint_rule
from ..source import keyword, may_be, segment, text
from ..rows import const as _const, minus_one as _minus_one, one_score_per_node as _one_score_per_node
from ..rows import size0 as _size0, true as _true
from ..walk import walk

_NAMES = frozenset({"softmax", "log_softmax"})


def _dim_zero(m, call: ast.Call) -> str | None:
    """"softmax"/"log_softmax" when ``call`` normalises over dim 0 (function or method
    spelling, or a call of an ``nn.Sequential`` that ends in ``nn.Softmax(dim=0)``)."""
    if isinstance(call.func, ast.Name):
        seq = single_def(m, call.func)
        if isinstance(seq, ast.Call) and m.qualname(seq.func) == "torch.nn.Sequential" and seq.args:
            last = seq.args[-1]
            q = m.qualname(last.func) if isinstance(last, ast.Call) else None
            if q in ("torch.nn.Softmax", "torch.nn.LogSoftmax"):
                dim = keyword(last, "dim") or (last.args[0] if last.args else None)
                if isinstance(dim, ast.Constant) and dim.value == 0 and type(dim.value) is int:
                    return f"`{call.func.id}` (an nn.Sequential ending in {q.rsplit('.', 1)[-1]}(dim=0))"
    layer = _self_layer(m, call)
    if layer is not None:
        q = m.qualname(layer.func).rsplit(".", 1)[-1]
        return f"`{ast.unparse(call.func)}` ({q}(dim=0), line {layer.lineno})"
    if not may_be(call, _NAMES):
        return None
    c = m.callee(call)
    if c[0] == "fn" and (c[1] in N.SOFTMAX or c[1] in N.LOG_SOFTMAX):
        which = "log_softmax" if c[1] in N.LOG_SOFTMAX else "softmax"
        dim = keyword(call, "dim")
        if dim is None and len(call.args) >= 2:
            dim = call.args[1]
    elif c[0] == "meth" and c[1] in _NAMES:
        which = c[1]
        dim = keyword(call, "dim")
        if dim is None and call.args:
            dim = call.args[0]
    else:
        return None
    return which if isinstance(dim, ast.Constant) and dim.value == 0 and type(dim.value) is int else None


def _self_layer(m, call: ast.Call) -> ast.Call | None:
    """The ``nn.Softmax(dim=0)`` / ``nn.LogSoftmax(dim=0)`` that ``self.act(x)`` calls: the
    module built once in ``__init__`` (``self.act = nn.Softmax(dim=0)``), else None."""
    f = call.func
    if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self"):
        return None
    k = m.kind(f.value)
    if not (isinstance(k, tuple) and k[0] == "local"):
        return None
    for c in m._mro(k[1]):
        vals = m.w.self_attrs.get((c.name, f.attr))
        if vals:
            return vals[0] if len(vals) == 1 and _softmax_dim0_module(m, vals[0]) else None
    return None


@lint_rule(
    "softmax-over-batch-dim", "TD541", "error",
    "a softmax or log_softmax over dim 0 (the batch) whose result is then read per sample and class "
    "(gather along dim 1, [rows, targets])",
    needles=[("softmax", "Softmax")],
    fix="normalise over the class dimension: F.log_softmax(logits, dim=1) (or dim=-1)",
    confirm="sum the probabilities of one sample over the classes: they do not add up to 1",
)
def check(m):
    """What it detects: `F.softmax(x, 0)`, `F.log_softmax(x, dim=0)`, `x.log_softmax(0)`
    (any import spelling) whose result is picked per sample and class in the same function:
    `p.gather(1, target)`, `torch.gather(p, 1, target)`, `p[torch.arange(n), y]`, a reduction
    over dim 1 (`p.max(dim=1)`, `F.normalize(p * r, p=1, dim=1)`) (reads that prove a 2-D
    tensor), or, for log_softmax, soft targets times it summed over dim 1 (`torch.sum(targets *
    logp, dim=1)`: a cross-entropy per sample); and a model's output normalised over dim 0 where the model
    provably sees a batch: an `nn.Sequential` with `nn.Flatten()` or batch norm ending in
    `nn.LogSoftmax(dim=0)` (flagged at that layer), a `forward` returning it (also through a
    layer built on `self`, `self.act = nn.Softmax(dim=0)`, flagged at that layer) whose class
    (or a sub-network class of the file) builds batch norm, Flatten, a `batch_first`
    RNN or a graph convolution (PyG/DGL `*Conv`: one row per node, unless the forward
    squeezes to one score per node first), or that reshapes keeping the rows first (`x.view(-1, k)`, `x.view(x.size(0), -1)`,
    `x.flatten(1)`), alone or in a returned tuple; and a model's output on a batch of a
    loop over a data loader (`for data, label in test_iter: F.softmax(net(data), dim=0)`, also
    through `output = net(data)`), or on a batch of one (`s = x.unsqueeze(0)`; every value 1); and
    a call of the file's method whose one return is a softmax over dim 0 (constant, or a
    `softmax_dim=0` default the call keeps), read per sample and class (`self.pi(s).gather(1, a)`).
    A softmax over dim 0 used another way (attention weights over a sequence-first axis,
    a policy's 1-D logits for one state, one sample's logits passed to `nll_loss`) is not
    flagged.

    Why it happens: on a (batch, classes) tensor, dim 0 normalises each class over
    the samples of the batch: a sample's "log-probabilities" then depend on the other
    samples and do not sum to 1 over its classes, so the loss rewards making one sample's
    logit large relative to the others in its batch rather than the right class relative
    to the wrong ones. The loss still falls a little, accuracy stays poor, and nothing
    raises an error (cause `loss-mismatch`). A classic in hand-written focal and margin
    losses, where the dim was copied from a 1-D example.

    Example:
        logpt = F.log_softmax(output, 0)                 # over the batch
        logpt = logpt.gather(1, target.view(-1, 1))      # read per sample and class

    How to fix:
        logpt = F.log_softmax(output, dim=1)             # over the classes
    """
    yield from _in_batched_sequential(m)
    yield from _called_softmax(m)
    for site in m.w.calls:
        call = site.node
        which = _dim_zero(m, call)
        if which is None:
            continue
        fn = _enclosing_function(m, call)
        why = _batched_forward(m, fn, call) if fn is not None and fn.name == "forward" else None
        layer = _self_layer(m, call)
        if why is not None and layer is not None:  # the line to change is the layer's dim
            q = m.qualname(layer.func).rsplit(".", 1)[-1]
            yield Hit(layer, f"{q}(dim=0), called as `{ast.unparse(call.func)}` on line {call.lineno}, makes the "
                             f"output of the forward of a model that sees a batch ({why}): each sample's values "
                             "are normalised across the batch, not over its classes; use dim=1 (or -1)",
                      related=((call, "the forward's call of the layer"),))
            continue
        if why is not None:
            yield Hit(call, f"{which} over dim 0 in the forward of a model that sees a batch ({why}), and its "
                            "result is the model's output: each sample's values are normalised across the batch, "
                            "not over its classes; use dim=1 (or -1)")
            continue
        batch = _loader_batch(m, site, call)
        if batch is not None:
            yield Hit(call, f"{which} over dim 0 of the model's output on {batch}: each sample's values are "
                            "normalised across the batch (a batch of one: every value becomes 1, or 0 for "
                            "log_softmax), not over its classes; use dim=1 (or -1)")
            continue
        # only a 2-D read proves dim 0 is the batch: nll_loss(F.log_softmax(logits, 0), a) on
        # one sample's 1-D logits (REINFORCE) is right, so a loss's input alone is not flagged
        target = _assigned_name(m, call)
        fn = _enclosing_function(m, call) or m.tree  # a script's top level is a scope too
        if target is None:
            if chained_pick(fn, call):  # torch.softmax(logits, dim=0).argmax(dim=1)
                yield Hit(call, f"{which} over dim 0 (the batch), then picked over dim 1 on the same line: each "
                                "sample's values are normalised across the batch, not over its classes; use dim=1")
            continue
        use = next((u for u in per_sample_reads(m, fn, target) if u.lineno >= call.lineno), None)
        if use is None and which == "log_softmax":
            use = next((u for u in soft_cross_entropy(fn, target) if u.lineno >= call.lineno), None)
        if use is not None:
            yield Hit(call, f"{which} over dim 0 (the batch), then `{target}` is read per sample and class (line "
                            f"{use.lineno}): each sample's values are normalised across the batch, not over its "
                            "classes; use dim=1 (or -1)")


_LOADER_WORDS = frozenset({"loader", "dataloader", "dl", "iter", "batches"})


def _loader_batch(m, site, call: ast.Call) -> str | None:
    """``for data, label in test_iter: F.softmax(net(data), dim=0)``: the softmax's input is (or
    is a name set once to) a model run on what a loop over a data loader yields (batches, dim 0 their rows); the
    name of that batch, else None."""
    x = call.args[0] if call.args else None
    d = m.defs(x) if isinstance(x, ast.Name) else None
    if d and len(d) == 1 and isinstance(d[0], ast.Call):
        x = d[0]  # output = net(data); F.log_softmax(output, dim=0)
    if not isinstance(x, ast.Call) or m.callee(x)[0] == "fn" or not x.args:
        return None  # not a model's call (torch.matmul(q, k), a library function)
    used = {n.id for a in x.args for n in walk(a) if isinstance(n, ast.Name)}
    for a in x.args[:1]:  # state = torch.as_tensor(s).unsqueeze(0); F.softmax(self.logits(state), dim=0)
        d = m.defs(a) if isinstance(a, ast.Name) else None
        if d and len(d) == 1 and isinstance(d[0], ast.Call) and isinstance(d[0].func, ast.Attribute) \
                and d[0].func.attr == "unsqueeze" and d[0].args and _const(d[0].args[0], 0) \
                and not _flattens(m, x):
            return f"`{a.id}`, a batch of one from unsqueeze(0) on line {d[0].lineno}"
    for loop in site.ctx.loops:
        if not isinstance(loop, ast.For):
            continue
        it = loop.iter.args[0] if isinstance(loop.iter, ast.Call) and loop.iter.args \
            and text(loop.iter.func) in ("enumerate", "tqdm") else loop.iter
        words = set(re.split(r"[^a-z0-9]+", text(it).lower()))
        got = {n.id for n in walk(loop.target) if isinstance(n, ast.Name)} & used
        if words & _LOADER_WORDS and isinstance(loop.target, ast.Tuple) and got:
            return f"`{sorted(got)[0]}`, a batch of a data loader"
    return None


def _flattens(m, run: ast.Call) -> bool:  # the model's method may drop the batch of one itself
    c = m.callee(run)
    fn = c[1][1] if c[0] == "obj" and c[1][0] == "func" else m.method(c[1][1], "forward") \
        if c[0] == "obj" and c[1][0] == "local" else None
    return fn is None or any(w in segment(m, fn) for w in (b"squeeze(", b"flatten(", b"view(-1)", b"reshape(-1)"))


def _called_softmax(m):
    """``pi = self.pi(s)``, a method of the file whose one return is a softmax over dim 0 (a
    constant, or a ``softmax_dim=0`` default the call leaves in place: minimalRL's PPO), then
    ``pi.gather(1, a)``: the batch is normalised, not each sample's actions."""
    for site in m.w.calls:
        call, c = site.node, m.callee(site.node)
        fn = c[1][1] if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "func" else None
        rets = m.w.returns.get(id(fn)) if fn is not None else None
        if not rets or len(rets) != 1 or not isinstance(rets[0], ast.Call) or not may_be(rets[0], _NAMES):
            continue
        sm, which = rets[0], _dim_zero(m, rets[0])
        dim = keyword(sm, "dim") or (sm.args[1] if len(sm.args) > 1 else None)
        if which is None and isinstance(dim, ast.Name):  # def pi(self, x, softmax_dim=0)
            args = fn.args.args[len(fn.args.args) - len(fn.args.defaults):]
            zero = any(a.arg == dim.id and _const(d, 0) for a, d in zip(args, fn.args.defaults))
            passed = any(k.arg == dim.id for k in call.keywords) or len(call.args) > 1
            c2 = m.callee(sm)
            real = c2[0] == "fn" and (c2[1] in N.SOFTMAX or c2[1] in N.LOG_SOFTMAX) or c2[0] == "meth"
            which = "softmax" if zero and not passed and real else None
        target = _assigned_name(m, call) if which is not None else None
        use = next((u for u in per_sample_reads(m, _enclosing_function(m, call) or m.tree, target or "")
                    if u.lineno >= call.lineno), None) if target else None
        if use is not None:
            yield Hit(call, f"`{ast.unparse(call.func)}` returns a softmax over dim 0 (line {sm.lineno}) and `{target}` "
                            f"is read per sample and class (line {use.lineno}): each action's probability is "
                            "normalised across the batch; take the softmax over dim 1 (or -1) for batches",
                      related=((sm, "the softmax over dim 0"),))


def _assigned_name(m, call: ast.Call) -> str | None:
    """The plain name ``call``'s value is assigned to (``v = F.log_softmax(x, 0)``), else None."""
    for node in walk(_enclosing_function(m, call) or m.tree):
        if isinstance(node, ast.Assign) and node.value is call and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            return node.targets[0].id
    return None


def _enclosing_function(m, node: ast.AST) -> ast.AST | None:
    """The innermost function definition containing ``node`` (memoised per file)."""
    spans = m.memo.get("td541-fns")
    if spans is None:
        spans = m.memo["td541-fns"] = [n for n in walk(m.tree)
                                       if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    best = None
    for fn in spans:
        if fn.lineno <= node.lineno <= (fn.end_lineno or fn.lineno):
            if best is None or fn.lineno >= best.lineno:
                best = fn
    return best


# layers that only exist with a batch dimension in front: BatchNorm needs several values per
# channel in training, Flatten() keeps dim 0 (start_dim=1)
_BATCH_LAYERS = frozenset({"torch.nn.BatchNorm1d", "torch.nn.BatchNorm2d", "torch.nn.BatchNorm3d", "torch.nn.Flatten"})


def _softmax_dim0_module(m, e: ast.AST) -> bool:
    if not (isinstance(e, ast.Call) and m.qualname(e.func) in ("torch.nn.Softmax", "torch.nn.LogSoftmax")):
        return False
    dim = keyword(e, "dim") or (e.args[0] if e.args else None)
    return isinstance(dim, ast.Constant) and dim.value == 0 and type(dim.value) is int


def _batch_layer(m, e) -> bool:
    """A BatchNorm layer, or ``nn.Flatten()`` keeping dim 0 (its default start_dim=1)."""
    if not isinstance(e, ast.Call) or m.qualname(e.func) not in _BATCH_LAYERS:
        return False
    if m.qualname(e.func) != "torch.nn.Flatten":
        return True
    start = keyword(e, "start_dim") or (e.args[0] if e.args else None)
    return start is None or not _const(start, 0)


def _in_batched_sequential(m):
    """``nn.Sequential(nn.Flatten(), ..., nn.LogSoftmax(dim=0))``: the layers before the
    softmax keep a batch dimension in front, so dim 0 is the batch (flagged at the softmax)."""
    for site in m.w.calls:
        seq = site.node
        if m.qualname(seq.func) != "torch.nn.Sequential" or len(seq.args) < 2:
            continue
        last = seq.args[-1]
        if _softmax_dim0_module(m, last) and any(_batch_layer(m, a) for a in seq.args[:-1]):
            yield Hit(last, f"{m.qualname(last.func).rsplit('.', 1)[-1]}(dim=0) at the end of an nn.Sequential "
                            "whose layers keep a batch dimension in front (Flatten / BatchNorm): it normalises each "
                            "class over the batch, not each sample over its classes; use dim=1 (or -1)")


def _batched_forward(m, fn: ast.FunctionDef, call: ast.Call) -> str | None:
    """Why ``fn`` (a forward) sees a batch, when ``call``'s result is what it returns: its
    class builds a BatchNorm or Flatten layer, or the forward reshapes keeping the rows
    (``x.view(-1, k)``, ``x.view(x.size(0), -1)``, ``x.flatten(1)``, ``torch.flatten(x, 1)``)."""
    if not _returned(fn, call):
        return None
    classes = {c.name: c for c in walk(m.tree) if isinstance(c, ast.ClassDef)}
    cls = next((c for c in classes.values() if fn in c.body), None)
    if cls is None:
        return None
    for node in walk(cls):
        if not isinstance(node, ast.Call):
            continue
        if _batch_layer(m, node):
            return f"it builds {m.qualname(node.func).rsplit('.', 1)[-1]}"
        q = m.qualname(node.func) or ""
        if q.startswith(("torch_geometric.nn.", "dgl.nn.")) and q.rsplit(".", 1)[-1].endswith("Conv") \
                and not _one_score_per_node(fn, call):
            # a graph convolution's output has one row per node: dim 0 normalises over the nodes
            return f"its {q.rsplit('.', 1)[-1]} outputs one row per node"
        if m.qualname(node.func) in _RNNS and _true(keyword(node, "batch_first")):
            return f"its {m.qualname(node.func).rsplit('.', 1)[-1]} takes batch_first input"
        sub = classes.get(node.func.id) if isinstance(node.func, ast.Name) else None
        if sub is not None and sub is not cls and any(  # a sub-network of the file (PointNet's feature net)
                _batch_layer(m, n) for n in walk(sub)):
            return f"its {sub.name} builds batch-norm or flatten layers"
    for node in walk(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)) or node.lineno > call.lineno:
            continue
        a = node.args
        if node.func.attr in ("view", "reshape") and len(a) >= 2 and (_minus_one(a[0]) or _size0(a[0])) \
                and not _const(a[-1], 1):  # (view(-1, 1): a column of scores over instances, not rows)
            return f"`{ast.unparse(node)}` keeps the rows"
        if node.func.attr == "flatten" and ((a and _const(a[-1], 1)) or _const(keyword(node, "start_dim"), 1)):
            return f"`{ast.unparse(node)}` keeps the rows"
    return None


_RNNS = frozenset({"torch.nn.LSTM", "torch.nn.GRU", "torch.nn.RNN"})


def _returned(fn: ast.FunctionDef, call: ast.Call) -> bool:
    """``call`` is what ``fn`` returns: ``return F.log_softmax(...)``, or a name assigned
    from it and then returned."""
    names = {t.id for n in walk(fn) if isinstance(n, ast.Assign) and n.value is call
             for t in n.targets if isinstance(t, ast.Name)}
    for n in walk(fn):
        if isinstance(n, ast.Return) and n.value is not None:
            outs = n.value.elts if isinstance(n.value, ast.Tuple) else [n.value]  # return probs, features
            if any(v is call or (isinstance(v, ast.Name) and v.id in names) for v in outs):
                return True
    return False
