"""What an expression provably is: a softmax output, a norm, a count, a loss module, ...

:class:`Module` wraps one parsed file and answers, lazily and memoised:

- :meth:`Module.qualname`: the library name an expression refers to through imports and
  aliases (``F.softmax`` -> ``torch.nn.functional.softmax``);
- :meth:`Module.kind`: a tag for tensors (``"softmax"``, ``"log_softmax"``, ``"sigmoid"``,
  ``"prob"``, ``"exp"``/``"exp0"`` (exp of an unshifted / max-shifted argument),
  ``"sumexp"``/``"sumexp0"``, ``"norm"``, ``"variance"``, ``"std"``, ``"sumsq"``,
  ``"probsum"`` (softmax probabilities summed or averaged over another axis),
  ``"maskedprob"`` (probabilities times a 0/1 mask), ``"maskedsum"`` (their sum),
  ``"sq"``, ``"mask"``, ``"count"``, ``"uniform"`` (a torch.rand sample), ``"groupsum"``,
  ``"stft"`` / ``"spectrum"`` (a complex STFT / its magnitude)), or a tuple
  for objects: ``("ref", qualname)`` for a library name, ``("inst", qualname)`` for an instance of a library class,
  ``("seq", tag)`` for an ``nn.Sequential`` whose last layer returns ``tag``,
  ``("local", ClassDef)`` for an instance of a class of this file, ``("class", ClassDef)``,
  ``("func", FunctionDef)``.

A kind is only returned when every assignment that can reach a name agrees: "provably",
so that the rules stay silent on code they cannot see through. What a call returns is
decided in :mod:`traindoc.lint.call_kinds`.
"""

from __future__ import annotations

import ast
from typing import Any

from . import names as N
from . import sites
from .bindings import UNKNOWN, Elt, ImportRef, Param, Scope
from .call_kinds import call_kind
from .main_model import module_global, only_model_for
from .scope import Walker

PROBS = frozenset({"softmax", "sigmoid", "prob"})
_BUSY = object()
_MAX_CYCLES = 2000  # past this many cycle hits in a file, memoise anyway (bounded cost)


class Module:
    def __init__(self, path: str, source: bytes, tree: ast.Module) -> None:
        self.path = path
        self.source = source
        self.tree = tree
        w = Walker()
        w.run(tree)
        self.w = w
        self._kind: dict[int, Any] = {}
        self._q: dict[int, str | None] = {}
        self._callee: dict[int, tuple] = {}
        self._sites: dict[int, list] | None = None
        self._cycles = 0
        self.memo: dict[str, Any] = {}  # per-file scratch space for rules (freed with the module)

    # ---- names ---------------------------------------------------------------------
    def defs(self, name: ast.Name) -> tuple | None:
        d = self.w.reach.get(id(name))
        if isinstance(d, Scope):
            return d.lookup(name.id)
        return d

    def qualname(self, e: ast.AST) -> str | None:
        """The canonical library name ``e`` refers to, or None (a local value or unknown)."""
        k = id(e)
        if k in self._q:
            return self._q[k]
        self._q[k] = None
        q: str | None = None
        if isinstance(e, ast.Name):
            d = self.defs(e)
            if d and all(isinstance(x, ImportRef) for x in d) and len({x.q for x in d}) == 1:
                q = d[0].q
            elif d and len(d) == 1 and isinstance(d[0], ast.expr) and isinstance(d[0], (ast.Name, ast.Attribute)):
                q = self.qualname(d[0])  # softmax = F.softmax
        elif isinstance(e, ast.Attribute):
            base = self.qualname(e.value)
            if base is not None:
                q = f"{base}.{e.attr}"
        q = N.canon(q) if q else None
        self._q[k] = q
        return q

    # ---- kinds ---------------------------------------------------------------------
    def kind(self, e: Any) -> Any:
        if e is None or e is UNKNOWN:
            return None
        k = id(e)
        got = self._kind.get(k)
        if got is _BUSY:
            self._cycles += 1
            return None  # a cycle (x = f(x)): not provable along this path
        if k in self._kind:
            return got
        self._kind[k] = _BUSY
        before = self._cycles
        try:
            r = self._compute(e)
        except RecursionError:  # pathological nesting: say nothing rather than fail
            r = None
        if r is None and self._cycles != before and self._cycles < _MAX_CYCLES:
            # "unknown" only because an enclosing query was in progress: asked on its own,
            # the answer may differ, so do not memoise it (rules must not depend on order)
            del self._kind[k]
        else:
            self._kind[k] = r
        return r

    def _agree(self, values: Any) -> Any:
        out = None
        for i, v in enumerate(values):
            kv = self.kind(v)
            if kv is None:
                return None
            if i == 0:
                out = kv
            elif kv != out:
                return None
        return out

    def _compute(self, e: Any) -> Any:  # noqa: C901
        if isinstance(e, ImportRef):
            return ("ref", N.canon(e.q))
        if isinstance(e, Param):
            return self._param_kind(e)
        if isinstance(e, Elt):
            return self._elt_kind(e)
        if isinstance(e, tuple) and len(e) == 2 and e[0] == "self":
            return ("local", e[1])
        if isinstance(e, ast.ClassDef):
            return ("class", e)
        if isinstance(e, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return ("func", e)
        t = type(e)
        if t is ast.Name:
            d = self.defs(e)
            return self._agree(d) if d else None
        if t is ast.Attribute:
            q = self.qualname(e)
            if q is not None:
                return ("ref", q)
            base = self.kind(e.value)
            if isinstance(base, tuple) and base[0] == "local":
                return self._attr_of_class(base[1], e.attr)
            if isinstance(base, str) and e.attr in ("data", "T", "mT"):
                return base
            return None
        if t is ast.Subscript:
            base = self.kind(e.value)
            return base if isinstance(base, str) else None
        if t is ast.Call:
            return call_kind(self, e)
        if t is ast.Compare:
            return "mask"
        if t is ast.UnaryOp and type(e.op) is ast.Invert:
            return "mask" if self.kind(e.operand) == "mask" else None
        if t is ast.IfExp:
            return self._agree((e.body, e.orelse))
        if t is ast.BinOp:
            return self._binop(e)
        return None

    def _param_kind(self, p: Param) -> Any:
        """A parameter's kind: from its annotation (``policy: Policy``), else the kind that
        every call of its function in this file passes (defaults included) agrees on."""
        if p.annotation is not None:
            k = self.kind(p.annotation)
            if isinstance(k, tuple) and k[0] == "class":
                return ("local", k[1])
            if isinstance(k, tuple) and k[0] == "ref" and k[1].rsplit(".", 1)[-1][:1].isupper():
                return ("inst", k[1])
        sites = self.call_sites(p.fn)
        if not sites and p.default is None:
            cls = only_model_for(self, p.name)  # def fit(model, ...) never called here: the file's model
            if cls is not None:
                return ("local", cls)
            g = module_global(self, p.name)  # def train(..., criterion) and `criterion = nn.CrossEntropyLoss()`
            k = self.kind(g) if g is not None and not p.bound else None
            # an object (a loss module, a model); not a tensor a notebook's demo cell left at top
            # level (`pred = F.log_softmax(...)` beside a loss class's `forward(self, pred, ...)`)
            return k if isinstance(k, tuple) else None
        values = self.arg_values(p)
        return self._agree(values) if values else None

    def arg_values(self, p: Param) -> list | None:
        """What every call of ``p``'s function in this file passes for it (its default where
        a call leaves it out); None when a call's ``*args``/``**kw`` hide it or it has no value."""
        values = []
        for call in self.call_sites(p.fn):
            if any(isinstance(x, ast.Starred) for x in call.args) or any(k.arg is None for k in call.keywords):
                return None  # f(*args) / f(**kw): cannot tell which argument lands where
            i = None if p.pos is None else p.pos - (1 if p.bound else 0)
            if i is not None and 0 <= i < len(call.args):
                values.append(call.args[i])
                continue
            kw = next((k.value for k in call.keywords if k.arg == p.name), None)
            if kw is None:
                kw = p.default
            if kw is None:
                return None
            values.append(kw)
        return values

    def call_sites(self, fn: Any) -> list:
        """Calls in this file that resolve to the function ``fn`` (indexed once per file)."""
        if self._sites is None:
            self._sites = sites.build(self)
        return self._sites.get(id(fn), [])

    def _attr_of_class(self, cls: ast.ClassDef, attr: str) -> Any:
        for c in self._mro(cls):
            vals = self.w.self_attrs.get((c.name, attr))
            if vals:
                return self._agree(vals)
        return None

    def _mro(self, cls: ast.ClassDef) -> list[ast.ClassDef]:
        """The class and its bases defined in this file (depth-first, cycle-safe)."""
        out, todo = [], [cls]
        while todo and len(out) < 16:
            c = todo.pop(0)
            if any(c is o for o in out):
                continue
            out.append(c)
            for b in c.bases:
                k = self.kind(b)
                if isinstance(k, tuple) and k[0] == "class":
                    todo.append(k[1])
        return out

    def method(self, cls: ast.ClassDef, name: str) -> Any:
        for c in self._mro(cls):
            for b in c.body:
                if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) and b.name == name:
                    return b
        return None

    def _elt_kind(self, e: Elt) -> Any:
        """``a, b = model(x)``: element ``e.index`` of every tuple the callee (a function or
        a model of the file) returns, when all of them are tuples and agree."""
        c = self.callee(e.value)
        k = c[1] if c[0] == "obj" else None
        fn = k[1] if k and k[0] == "func" else self.method(k[1], "forward") if k and k[0] == "local" else None
        rets = self.w.returns.get(id(fn)) if fn is not None else None
        if not rets or not all(isinstance(r, (ast.Tuple, ast.List)) and len(r.elts) > e.index
                               and not any(isinstance(x, ast.Starred) for x in r.elts) for r in rets):
            return None
        return self._agree([r.elts[e.index] for r in rets])

    def returns_kind(self, fn: Any) -> Any:
        rets = self.w.returns.get(id(fn))
        return self._agree(rets) if rets else None

    def _binop(self, e: ast.BinOp) -> Any:
        op = type(e.op)
        if op is ast.Sub and isinstance(e.left, ast.Constant) and e.left.value == 1:
            return "prob" if self.kind(e.right) in PROBS else None
        if op is ast.Div:
            if self.has_kind(e.left, ("exp", "exp0")) and self.has_kind(e.right, ("sumexp", "sumexp0")):
                return "softmax"  # a hand-written softmax
            if self.kind(e.left) == "probsum":
                return "probsum"  # a mean over time of probabilities: still 0 where each one is
            if self.kind(e.left) == "maskedprob" and self.kind(e.right) == "maskedsum":
                return "maskedprob"  # renormalised: still exactly 0 where masked
            if self.kind(e.left) == "relu":
                return "relu"  # overlap / union: 0 wherever the numerator is (disjoint boxes' IoU)
            return None
        if op is ast.Mult:
            sides = (self.kind(e.left), self.kind(e.right))
            if "mask" in sides and (sides[0] in PROBS or sides[1] in PROBS):
                return "maskedprob"  # softmax(x) * mask: exactly 0 at every masked entry
            if sides == ("relu", "relu"):
                return "relu"  # w.clamp(min=0) * h.clamp(min=0): 0 wherever either factor is
            if sides == ("norm", "norm"):
                return "norm"  # |a| * |b|, a hand-written cosine's denominator: 0 when either is
        if op is ast.Add and self.kind(e.left) in ("sq", "sumsq") and self.kind(e.right) in ("sq", "sumsq") \
                and _sliced(e.left, self.defs) and _sliced(e.right, self.defs):
            return "sumsq"  # g[:, 0] ** 2 + g[:, 1] ** 2: 0 where both are
        if op is ast.Pow and isinstance(e.right, ast.Constant) and e.right.value == 2:
            return "sq"
        if op is ast.Mult and _small(e) and ast.dump(e.left) == ast.dump(e.right):
            return "sq"  # x * x
        if op in (ast.BitAnd, ast.BitOr):
            return "mask" if self.kind(e.left) == "mask" and self.kind(e.right) == "mask" else None
        return None

    def has_kind(self, e: Any, tags: tuple, depth: int = 3) -> bool:
        """``e`` is of a kind in ``tags``, or combines one with +, -, *, / or a clamp."""
        k = self.kind(e)
        if k in tags:
            return True
        if depth == 0:
            return False
        if isinstance(e, ast.BinOp):
            return self.has_kind(e.left, tags, depth - 1) or self.has_kind(e.right, tags, depth - 1)
        if isinstance(e, ast.Name):
            d = self.defs(e)
            return bool(d) and len(d) == 1 and isinstance(d[0], ast.expr) and self.has_kind(d[0], tags, depth - 1)
        if isinstance(e, ast.Call):
            c = self.callee(e)
            if c[0] == "fn" and c[1] in N.CLAMPS or c[0] == "meth" and c[1] in ("clamp", "clip", "clamp_min", "add"):
                return any(self.has_kind(a, tags, depth - 1) for a in self.operands(e))
        return False

    # ---- calls ---------------------------------------------------------------------
    def callee(self, call: ast.Call) -> tuple:
        """("fn", qualname) | ("meth", name, receiver) | ("obj", kind of the callee) | ("?",).

        Memoised: every rule asks it of every call."""
        k = id(call)
        got = self._callee.get(k)
        if got is None:
            got = self._callee[k] = self._callee_of(call)
        return got

    def _callee_of(self, call: ast.Call) -> tuple:
        f = call.func
        q = self.qualname(f)
        if q is not None:
            return ("fn", q)
        if isinstance(f, ast.Attribute):
            rk = self.kind(f.value)
            if f.attr == "forward" and isinstance(rk, tuple) and rk[0] in ("inst", "seq"):
                return ("obj", rk)  # model.forward(x), loss.forward(out, y): the module called directly
            if isinstance(rk, tuple) and rk[0] == "local":
                m = self.method(rk[1], f.attr)
                if m is not None:
                    return ("obj", ("func", m))
                ak = self.kind(f)  # self.criterion = nn.CrossEntropyLoss() ... self.criterion(out, y)
                if isinstance(ak, tuple) and ak[0] == "ref":
                    return ("fn", ak[1])  # self.loss_func = F.binary_cross_entropy_with_logits
                if ak is not None:
                    return ("obj", ak)
            return ("meth", f.attr, f.value)
        k = self.kind(f)
        return ("obj", k) if k is not None else ("?",)

    def operands(self, call: ast.Call) -> list:
        """The tensor a call works on first: the receiver of a method, else the first argument."""
        f = call.func
        out = []
        if isinstance(f, ast.Attribute) and self.qualname(f) is None:
            out.append(f.value)
        out.extend(a for a in call.args if not isinstance(a, ast.Starred))
        return out

    def first_arg(self, call: ast.Call, keyword: str = "input") -> Any:
        """The first argument of a function-style call (``F.x(a, ...)``) or ``keyword=``."""
        if call.args and not isinstance(call.args[0], ast.Starred):
            return call.args[0]
        for kw in call.keywords:
            if kw.arg == keyword:
                return kw.value
        return None

    def subject(self, call: ast.Call) -> Any:
        """The tensor an op applies to: ``x`` in ``torch.log(x)`` and in ``x.log()``."""
        c = self.callee(call)
        if c[0] == "meth":
            return c[2]
        return self.first_arg(call)


def _sliced(e: Any, defs: Any) -> bool:
    """A square whose base is read out of a tensor (``g[:, 0] ** 2``, ``x.pow(2)[..., 1]``, a
    name set to one: ``gx = g[:, 0]``): a term ``h ** 2`` of another name or attribute may be a
    positive constant (``sigma ** 2``, a pseudo-Huber ``c ** 2``), so only slices are trusted."""
    base = e.left if isinstance(e, ast.BinOp) else e
    d = defs(base) if isinstance(base, ast.Name) else None
    if d is not None:  # a name: set to a tensor slice (g[:, 0], not cfg["a"])
        return len(d) == 1 and isinstance(d[0], ast.Subscript) and isinstance(d[0].slice, (ast.Slice, ast.Tuple))
    return isinstance(base, ast.Subscript) or isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) \
        and isinstance(e.func.value, ast.Subscript)


def _small(e: ast.BinOp) -> bool:
    return isinstance(e.left, (ast.Name, ast.Attribute)) and isinstance(e.right, (ast.Name, ast.Attribute))
