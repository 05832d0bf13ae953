"""TD526 tensor-op-result-discarded: ``x.to(device)`` as a statement on a tensor (a no-op)."""

from __future__ import annotations

import ast
import re

from .. import names as N
from ..bindings import Param
from ..flow import model_output
from ..ops import loss_of
from ..origin import returned
from ..registry import Hit, lint_rule
from ..source import text
from ..walk import walk

_OPS = frozenset("to cuda cpu float half double long int bool bfloat16 contiguous detach squeeze unsqueeze view "
                 "reshape permute transpose flatten clamp clip abs type pin_memory".split())
# out-of-place methods no module, array or container has (their in-place twins end in `_`):
# the receiver needs no proof of being a tensor. `.detach()` also exists on io streams.
_TORCH_ONLY = frozenset({"masked_fill", "index_fill", "masked_scatter", "unsqueeze", "clamp_min", "clamp_max",
                         "nan_to_num", "log_softmax", "detach"})
_STREAMS = re.compile(r"std(out|err|in)|stream|buffer|file|\bio\b|wrapper", re.I)
# names that hold a tensor in training code whatever built them (a dict entry, a model call)
_TENSOR_NAME = re.compile(r"^(logits?|probs?|preds?|loss(es)?)$|_(logits|probs|loss)$")
_LOADER_WORDS = ("loader", "dataloader", "_dl", "dl_", "batches")


@lint_rule(
    "tensor-op-result-discarded", "TD526", "error",
    "an out-of-place tensor method (`x.to(device)`, `x.cuda()`, `x.float()`) used as a statement: its result is discarded",
    needles=[("to(", "cuda(", "cpu(", "float(", "half(", "double(", "long(", "squeeze(", "view(", "reshape(",
              "detach(", "clamp(", "contiguous(", "permute(", "transpose(", "flatten(", "type(", "abs(", "clip(",
              "masked_fill(", "index_fill(", "masked_scatter(", "unsqueeze(", "clamp_m", "nan_to_num(",
              "log_softmax(")],
    fix="assign the result: x = x.to(device) (tensors are not moved in place; only nn.Module.to is in place)",
    confirm="print x.device (x.dtype, x.shape) after the statement: unchanged",
)
def check(m):
    """What it detects: an expression statement `x.to(device)`, `x.cuda()`, `x.float()`,
    `x.squeeze()`, `x.clamp(0, 1)` (and the other out-of-place tensor methods) whose
    receiver is provably a tensor: a name built by a tensor factory (`torch.tensor`,
    `torch.randn`, `torch.from_numpy`, ..., also through a helper of the file that returns one or None), a parameter annotated `torch.Tensor`, a
    tensor kind the checker knows (a softmax output, ...), or an element unpacked from a
    DataLoader in a `for x, y in loader:` header (or in `x, y = next(iter(loader))`), or a name the function reads as a tensor
    (`x.shape`, `x.size(0)`, `x.numel()`; not a name like `batch`, `data`, `inputs` or
    `model`, whose objects may move in place), or computes with as one (an operand of
    arithmetic, `vertices - eye`, an argument of a loss function or of a torch function
    such as `torch.cross(up, z)`, the first argument of a model's call, or an element
    appended to a list that `torch.cat` joins), or an expression the enclosing `if` tests with
    `isinstance(expr, torch.Tensor)` or `torch.is_tensor(expr)` (`x[name].to(device)` in a dict loop), or an entry of
    a Hugging Face encoding made with `return_tensors="pt"` (`inputs[key].to(device)`; the
    encoding's own `inputs.to(device)` is in place and not flagged). A module (`model.to(device)` is in place) and a single batch object
    (`batch.to(device)`: Hugging Face and PyG batches move in place) are not flagged. Methods only a tensor has (`masked_fill`, `unsqueeze`,
    `detach`, `clamp_min`, ...: the in-place twin ends in `_`) need no proof, and names such
    as `logits`, `probs`, `loss`, `*_logits` are read as tensors. Also a statement next to
    (within three statements of, or just around the loop holding) its twin written right:
    `train_x.to(dev)` beside `train_y = train_y.to(dev)` (names that differ in one word),
    the same method with the same arguments assigned back, for a receiver not named like a
    model or a batch object and not known as a module.

    Why it happens: tensor methods return a new tensor and leave the original
    unchanged. `x.to(device)` alone does nothing, so the batch stays on the CPU (a device
    mismatch error, or, with a CPU model, silently slow training), `x.float()` leaves
    the dtype as it was, and `y.squeeze()` leaves the (N, 1) shape that then broadcasts
    in the loss.

    Example:
        for x, y in loader:
            x.to(device)                                 # no effect
            y.squeeze(1)                                 # no effect

    How to fix:
        for x, y in loader:
            x, y = x.to(device), y.squeeze(1).to(device)
    """
    for site in m.w.exprs:
        v = site.node.value
        if type(v) is not ast.Call or type(v.func) is not ast.Attribute or v.func.attr not in _OPS | _TORCH_ONLY:
            continue
        recv = v.func.value
        # a tensor's detach() takes no argument (ignite's Metric.detach(engine) is another method)
        only = v.func.attr in _TORCH_ONLY and not (v.func.attr == "detach" and (v.args or v.keywords))
        if only and text(recv) and not _STREAMS.search(text(recv)) or _tensor(m, recv, site.ctx) \
                or _sibling_assigned(m, site, v) or _checked_tensor(m, recv, site) or _pt_entry(m, recv):
            loop = next((lp for lp in reversed(site.ctx.loops) if isinstance(recv, ast.Name)
                         and isinstance(lp, (ast.For, ast.AsyncFor))
                         and recv.id in {n.id for n in walk(lp.target) if isinstance(n, ast.Name)}), None)
            params = loop is not None and isinstance(loop.iter, ast.Call) \
                and isinstance(loop.iter.func, ast.Attribute) and loop.iter.func.attr in _PARAM_ITERS
            how = (f"a parameter changes with `{recv.id}.data = {recv.id}.data.{v.func.attr}(...)`, or convert its "
                   "module (`module.to(...)`, which is in place)" if params else
                   f"rebinding `{recv.id}` would not help either (the loop's variable): rebuild "
                   f"`{text(loop.iter) or 'what the loop reads'}` with the converted tensors" if loop is not None
                   else f"assign it (`{ast.unparse(recv) if isinstance(recv, ast.Subscript) else text(recv) or 'x'} = ...`)")
            shown = ast.unparse(recv) if isinstance(recv, ast.Subscript) else text(recv) or "tensor"
            yield Hit(v, f"`{shown}.{v.func.attr}(...)` as a statement: tensor methods return a new "
                         f"tensor, so the result is discarded; {how}")


def _tensor(m, e, ctx) -> bool:
    k = m.kind(e)
    if isinstance(k, str):
        return True
    if isinstance(k, tuple):  # a module, an optimizer, ... or a parameter annotated torch.Tensor
        return k[0] == "inst" and k[1] in ("torch.Tensor", "torch.FloatTensor", "torch.LongTensor")
    if not isinstance(e, ast.Name):
        return False
    if _TENSOR_NAME.search(e.id):
        return True
    d = m.defs(e)
    if d and all(_factory(m, x) for x in d):
        return True
    if d and len(d) == 1 and isinstance(d[0], Param) and d[0].annotation is not None:
        return (m.qualname(d[0].annotation) or "") in ("torch.Tensor", "torch.FloatTensor", "torch.LongTensor")
    if _read_as_tensor(e.id, ctx.func) or _used_as_tensor(m, e.id, ctx.func) or _first_batch(e.id, ctx.func):
        return True
    for loop in reversed(ctx.loops):
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            continue
        it, target = loop.iter, loop.target
        if isinstance(it, ast.Call) and it.args and text(it.func) == "enumerate":
            # for i, batch in enumerate(loader): the batch itself is the second element
            if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
                continue
            it, target = it.args[0], target.elts[1]
        if isinstance(it, ast.Call) and it.args and text(it.func) in ("tqdm", "tqdm.tqdm"):
            it = it.args[0]
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in _PARAM_ITERS \
                and (it.func.attr in ("parameters", "buffers") and isinstance(target, ast.Name) and target.id == e.id
                     or isinstance(target, ast.Tuple) and len(target.elts) == 2 and _unpacked(target, e.id)
                     and isinstance(target.elts[1], ast.Name) and target.elts[1].id == e.id):
            return True  # for name, param in model.named_parameters(): a Parameter, a tensor
        if _unpacked(target, e.id):
            low = (text(it) or "").lower()
            return any(w in low for w in _LOADER_WORDS)
    return False


_PARAM_ITERS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers"})
_TENSOR_TYPES = frozenset({"torch.Tensor", "Tensor", "torch.FloatTensor", "torch.LongTensor"})


def _pt_entry(m, recv) -> bool:
    """``enc[key]`` where ``enc`` was set once from a call with ``return_tensors="pt"`` (a
    Hugging Face tokenizer's or processor's BatchEncoding: every entry a tensor). The
    encoding's own ``enc.to(device)`` moves its entries in place and is not this."""
    if not (isinstance(recv, ast.Subscript) and isinstance(recv.value, ast.Name)):
        return False
    d = m.defs(recv.value)
    return bool(d) and len(d) == 1 and isinstance(d[0], ast.Call) and any(
        k.arg == "return_tensors" and isinstance(k.value, ast.Constant) and k.value.value == "pt"
        for k in d[0].keywords)


def _checked_tensor(m, recv, site) -> bool:
    """The statement sits in the body of an ``if isinstance(<recv>, torch.Tensor):`` (or
    ``torch.is_tensor(<recv>)``) test of
    the same expression (``if isinstance(x[name], torch.Tensor): x[name].to(dev)``, a dict of
    inputs moved one entry at a time): the code itself says the receiver is a tensor."""
    want = ast.unparse(recv)
    line = site.node.lineno
    for n in walk(site.ctx.func or m.tree):
        if not (isinstance(n, ast.If) and n.body and n.body[0].lineno <= line <= (n.body[-1].end_lineno or 0)):
            continue
        for c in walk(n.test):
            if isinstance(c, ast.Call) and text(c.func) == "isinstance" and len(c.args) == 2 \
                    and ast.unparse(c.args[0]) == want and text(c.args[1]) in _TENSOR_TYPES:
                return True
            if isinstance(c, ast.Call) and m.qualname(c.func) == "torch.is_tensor" and len(c.args) == 1 \
                    and ast.unparse(c.args[0]) == want:
                return True  # elif torch.is_tensor(self.alpha): self.alpha.to(dev)
    return False


# .dtype and .device are not on the list: diffusers' and transformers' models have both
_TENSOR_ATTRS = frozenset({"shape", "ndim", "numel", "size"})
_CONTAINER_WORDS = ("batch", "data", "graph", "sample", "inputs", "encoding", "model", "net", "module")


def _read_as_tensor(name: str, fn) -> bool:
    """The function reads ``name.shape`` / ``name.size(0)`` / ``name.numel()``: a tensor (or an
    array). Names of batch objects and models (whose ``.to()`` works in place) are left out."""
    if fn is None or any(w in name.lower() for w in _CONTAINER_WORDS):
        return False
    return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == name and (
        n.attr in _TENSOR_ATTRS or n.attr in _TENSOR_METHODS) for n in walk(fn))


# methods only a tensor has (a NumPy array has none of them): `value.is_floating_point()`
_TENSOR_METHODS = frozenset({"is_floating_point", "is_contiguous", "element_size", "data_ptr", "is_complex",
                             "is_pinned"})  # (not requires_grad_: a module has it too)


def _factory(m, x, depth: int = 4) -> bool:
    """A tensor factory (``torch.tensor``, ``torch.randn``, ``F.one_hot``, ``torch.cat``), also at
    the bottom of a chain of tensor methods (``F.one_hot(t, 5).float()``)."""
    if not isinstance(x, ast.Call) or depth < 0:
        return False
    c = m.callee(x)
    if c[0] == "fn":
        return c[1] in N.TENSOR_FACTORIES or c[1] in _MADE
    if c[0] == "obj":  # a helper of the file (`id_to_torch(i)`) whose every return but `None` is one
        real = [r for r in returned(m, x) or () if not (isinstance(r, ast.Constant) and r.value is None)]
        return bool(real) and all(_factory(m, r, depth - 1) for r in real)
    return c[0] == "meth" and c[1] in _OPS and _factory(m, c[2], depth - 1)


_MADE = frozenset({"torch.nn.functional.one_hot", "torch.cat", "torch.stack", "torch.where", "torch.arange"})


def _first_batch(name: str, fn) -> bool:
    """``x, y = next(iter(loader))``: an element of a DataLoader batch taken by hand (accelerate's
    sync test), a tensor whatever its name, as in a ``for x, y in loader:`` header. A single
    batch object (``batch = next(iter(loader))``) is not unpacked and is left alone."""
    for n in walk(fn) if fn is not None else ():
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and _unpacked(n.targets[0], name) \
                and isinstance(n.value, ast.Call) and text(n.value.func) == "next" and n.value.args \
                and isinstance(n.value.args[0], ast.Call) and text(n.value.args[0].func) == "iter" \
                and n.value.args[0].args and any(w in (text(n.value.args[0].args[0]) or "").lower()
                                                 for w in _LOADER_WORDS):
            return True
    return False


def _unpacked(target, name: str) -> bool:
    """``name`` is an element of a tuple target (``for x, y in ...``, ``for i, (x, y) in ...``)."""
    if not isinstance(target, (ast.Tuple, ast.List)):
        return False
    for el in target.elts:
        if isinstance(el, ast.Name) and el.id == name:
            return True
        if isinstance(el, (ast.Tuple, ast.List)) and _unpacked(el, name):
            return True
    return False


_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.MatMult, ast.Pow)


def _used_as_tensor(m, name: str, fn) -> bool:
    """The function computes with ``name`` as a tensor: an operand of arithmetic
    (``vertices - eye``), an argument of a loss function (``mse_loss(recon, x)``) or of a
    torch function (``torch.cross(up, z)``), or an element appended to a list that
    ``torch.cat`` joins. A model or a batch object is none of these (and a number has no ``.to()``)."""
    if fn is None or any(w in name.lower() for w in ("model", "net", "module")):
        return False
    named = lambda x: isinstance(x, ast.Name) and x.id == name  # noqa: E731
    lists = set()  # lists the name is appended to (all_emb.append(emb) ... torch.cat(all_emb))
    for n in walk(fn):
        if isinstance(n, ast.BinOp) and isinstance(n.op, _ARITH) and (named(n.left) or named(n.right)):
            return True
        if isinstance(n, ast.Call) and any(named(a) for a in n.args[:2]):
            lc = loss_of(m, n)
            if lc and (named(lc[1]) or named(lc[2])):
                return True
            if _math(m, n):
                return True
            if named(n.args[0]) and not any(w in name.lower() for w in _CONTAINER_WORDS) and model_output(m, n, 0):
                return True  # the input of a model's forward (`self.model(inp)`), not a batch object
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "append" \
                and len(n.args) == 1 and named(n.args[0]) and isinstance(n.func.value, ast.Name):
            lists.add(n.func.value.id)
    return bool(lists) and any(isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name)
                               and n.args[0].id in lists and (m.qualname(n.func) or "") in _JOIN for n in walk(fn))


_JOIN = frozenset({"torch.cat", "torch.stack", "torch.concat", "torch.vstack", "torch.hstack"})
# torch functions that take tensors but also models, files or flags: not evidence of a tensor
_NOT_MATH = ("torch.save", "torch.load", "torch.compile", "torch.jit.", "torch.nn.utils.", "torch.nn.parallel.",
             "torch.distributed.", "torch.optim.", "torch.utils.", "torch.cuda.", "torch.onnx.", "torch.export.",
             "torch.fx.", "torch.device", "torch.manual_seed", "torch.set_", "torch.is_", "torch.get_",
             "torch.no_grad", "torch.enable_grad", "torch.inference_mode", "torch.autocast", "torch.backends.")


def _math(m, call) -> bool:
    """``torch.cross(up, z)``, ``torch.matmul(a, b)``, ``F.normalize(x)``: a torch function that
    computes on tensors (not torch.save, torch.compile, a module class or a utility)."""
    q = m.qualname(call.func) or ""
    if not q.startswith("torch.") or q.startswith(_NOT_MATH):
        return False
    last = q.rsplit(".", 1)[-1]
    return last[:1].islower() and (q.count(".") == 1 or q.startswith(("torch.nn.functional.", "torch.linalg.",
                                                                        "torch.fft.", "torch.special.")))


_NOT_TENSOR_WORDS = _CONTAINER_WORDS + ("encoder", "decoder", "criterion", "loss_fn", "head", "layer", "backbone",
                                        "teacher", "student", "policy", "critic", "actor", "agent")


def _sibling_assigned(m, site, v: ast.Call) -> bool:
    """``train_x.to(dev)`` next to ``train_y = train_y.to(dev)``: the author reassigns the same
    conversion for its siblings, so the one left bare is a slip, not a module moved in place."""
    name = (text(v.func.value) or "").lower()
    if not name or name == "self" or any(w in name for w in _NOT_TENSOR_WORDS) or isinstance(
            m.kind(v.func.value), tuple):
        return False  # (a module, a loss object, an instance of a library class: .to() in place)
    want = (v.func.attr, ast.dump(ast.Tuple(v.args, ast.Load())), tuple(ast.dump(k) for k in v.keywords))
    stmt = site.node
    for body, i, names in _places(m, site.ctx.func or m.tree, stmt, name):
        for other in body[max(0, i - 3):i + 4]:
            if other is stmt or not (isinstance(other, ast.Assign) and len(other.targets) == 1):
                continue
            c = other.value
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and text(c.func.value) \
                    and text(c.func.value) == text(other.targets[0]) and _twins(names, text(c.func.value).lower()) \
                    and (c.func.attr, ast.dump(ast.Tuple(c.args, ast.Load())),
                         tuple(ast.dump(k) for k in c.keywords)) == want:
                return True
    return False


def _places(m, scope, stmt, name: str):
    """(body, index, names) of ``stmt`` in its statement list, and of the loop around it when it
    is that loop's only statement (``for t in self.inputs: t.to(dev)``: then the loop's
    iterable is the name its siblings are compared with)."""
    for node in walk(scope):
        for field in ("body", "orelse"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for i, st in enumerate(body):
                if st is stmt:
                    yield body, i, name
                elif isinstance(st, (ast.For, ast.AsyncFor)) and len(st.body) == 1 and st.body[0] is stmt:
                    yield body, i, (text(st.iter) or "").lower()


def _twins(a: str, b: str) -> bool:
    """Names of a parallel pair: the same words but one (``train_x`` / ``train_y``,
    ``self.train_inputs`` / ``self.train_targets``), at least one word shared."""
    wa, wb = re.split(r"[._]", a), re.split(r"[._]", b)
    return len(wa) == len(wb) >= 2 and sum(x != y for x, y in zip(wa, wb)) == 1
