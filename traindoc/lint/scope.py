"""One pass over a module: which assignment each name refers to, and where each call sits.

The pass follows statements in order within each scope (module, function, class body)
and records, for every name that is read, the assignments that can reach it
(``x = F.softmax(y)`` ... ``torch.log(x)``). Branches merge their bindings; a loop body is
walked once. That is "simple local flow": no aliasing through containers, no
inter-procedural data flow except calls to functions and classes of the same file,
which :mod:`traindoc.lint.kinds` resolves lazily.

Cost: one visit per node, the same order as :func:`ast.walk`; no ``ast.unparse``.
Every call, loop, division and ``with`` is indexed with its context (enclosing function,
class, loops, ``with`` blocks) so that rules never walk the tree again.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, NamedTuple


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()  # a binding whose value the pass cannot see (loop target, unpacking, +=)


@dataclass(frozen=True)
class ImportRef:
    """A name bound by an import: ``F`` after ``import torch.nn.functional as F``."""

    q: str


class Param:
    """A function parameter: known through its annotation (``policy: Policy``) or, lazily,
    through what every call of the function in this file passes for it (and its default).
    A plain class with slots: one is made per parameter of every function."""

    __slots__ = ("fn", "name", "pos", "annotation", "default", "bound")

    def __init__(self, fn: Any, name: str, pos: int | None, annotation: ast.expr | None,
                 default: ast.expr | None, bound: bool) -> None:
        self.fn = fn  # the FunctionDef
        self.name = name
        self.pos = pos  # index among positional parameters (None: keyword-only)
        self.annotation = annotation
        self.default = default
        self.bound = bound  # a method: call sites do not pass the first parameter

    def __repr__(self) -> str:
        return f"Param({self.name!r})"


@dataclass
class Scope:
    node: ast.AST | None
    parent: "Scope | None"
    env: dict[str, tuple] = field(default_factory=dict)

    def lookup(self, name: str) -> tuple | None:
        s: Scope | None = self
        while s is not None:
            d = s.env.get(name)
            if d is not None:
                return d
            s = s.parent
        return None


class Ctx(NamedTuple):
    """Where a node sits: enclosing function and class, loops and ``with`` blocks (outermost first)."""

    func: Any = None
    cls: Any = None
    loops: tuple = ()
    withs: tuple = ()


class Site(NamedTuple):
    """A node with its context (a tuple: one is made per call in the file, so it must be cheap)."""

    node: ast.AST
    ctx: Ctx


_Func = (ast.FunctionDef, ast.AsyncFunctionDef)
_Name, _Load, _Attribute, _Constant, _Call, _BinOp, _Div, _Subscript = (
    ast.Name, ast.Load, ast.Attribute, ast.Constant, ast.Call, ast.BinOp, ast.Div, ast.Subscript)
_Comp = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


# Fields that never hold a child expression (operators, contexts, names as strings).
_NOT_CHILDREN = frozenset("ctx op ops attr id arg conversion kind type_comment is_async level name module simple".split())
_CHILDREN: dict[type, tuple[str, ...]] = {}


def _child_fields(t: type) -> tuple[str, ...]:
    """The fields of node type ``t`` that may hold AST children, computed once per type."""
    return tuple(f for f in t._fields if f not in _NOT_CHILDREN)


def _annotations(fn: Any) -> list:
    """Parameter annotations that name something (evaluated where the ``def`` is)."""
    a = fn.args
    return [p.annotation for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)
            if isinstance(p.annotation, (ast.Name, ast.Attribute))]


def _merge(a: dict, b: dict) -> dict:
    """Bindings after a branch: a name keeps every assignment that may reach it."""
    out = dict(a)
    for k, v in b.items():
        old = out.get(k)
        if old is None or old is v:
            out[k] = v
        else:
            out[k] = old + tuple(x for x in v if not any(x is y for y in old))
    return out


class Walker:
    """Fills ``reach``, ``calls``, ``loops``, ``divs``, ``withs``, ``exprs``, ``compares`` and the
    class/function tables."""

    def __init__(self) -> None:
        self.reach: dict[int, Any] = {}  # id(Name load) -> tuple of defs | Scope (free name)
        self.calls: list[Site] = []
        self.loops: list[Site] = []
        self.divs: list[Site] = []  # BinOp with Div
        self.pows: list[Site] = []  # BinOp with Pow (x ** -0.5)
        self.withs: list[Site] = []
        self.exprs: list[Site] = []  # expression statements (a value computed and dropped)
        self.compares: list[ast.Compare] = []
        self.functions: dict[str, list] = {}  # name -> FunctionDefs (module functions and methods)
        self.func_ctx: dict[int, Ctx] = {}  # id(FunctionDef) -> its context
        self.func_scope: dict[int, Scope] = {}
        self.returns: dict[int, list] = {}  # id(FunctionDef) -> returned expressions
        self.classes: dict[str, ast.ClassDef] = {}
        self.self_attrs: dict[tuple[str, str], list] = {}  # (class, attr) -> assigned values
        self.module_scope = Scope(None, None)
        self._queue: list = []

    # ---- driver -------------------------------------------------------------------
    def run(self, tree: ast.Module) -> None:
        # _block may return a new dict (branches and loops merge into fresh ones): the
        # scope keeps the final bindings, which is what a function body sees when it runs
        self.module_scope.env = self._block(tree.body, self.module_scope, self.module_scope.env, Ctx())
        while self._queue:  # function bodies, after their enclosing scope is complete
            fn, parent, ctx = self._queue.pop(0)
            self._function(fn, parent, ctx)

    def _function(self, fn: Any, parent: Scope, ctx: Ctx) -> None:
        scope = Scope(fn, parent)
        self.func_scope[id(fn)] = scope
        env = scope.env
        a = fn.args
        positional = [*a.posonlyargs, *a.args]
        params = [*positional, *a.kwonlyargs]
        bound = ctx.cls is not None and bool(params) and not any(
            isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in fn.decorator_list
        )
        pos_defaults = dict(zip([p.arg for p in positional][len(positional) - len(a.defaults):], a.defaults))
        kw_defaults = {p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None}
        for i, p in enumerate(params):
            ann = p.annotation if isinstance(p.annotation, (ast.Name, ast.Attribute)) else None  # no strings
            env[p.arg] = (Param(fn, p.arg, i if i < len(positional) else None, ann,
                                pos_defaults.get(p.arg, kw_defaults.get(p.arg)), bound),)
        for p in (a.vararg, a.kwarg):
            if p is not None:
                env[p.arg] = (UNKNOWN,)
        if bound:
            env[params[0].arg] = (("self", ctx.cls),)
        self.returns[id(fn)] = []
        scope.env = self._block(fn.body, scope, env, Ctx(fn, ctx.cls, (), ()))

    # ---- statements ---------------------------------------------------------------
    def _block(self, stmts: list, scope: Scope, env: dict, ctx: Ctx) -> dict:
        for s in stmts:
            env = self._stmt(s, scope, env, ctx)
        return env

    def _stmt(self, s: ast.stmt, scope: Scope, env: dict, ctx: Ctx) -> dict:  # noqa: C901
        t = type(s)
        if t is ast.Assign:
            self._expr(s.value, scope, env, ctx)
            for tgt in s.targets:
                self._bind(tgt, s.value, scope, env, ctx)
        elif t is ast.Expr:
            self._expr(s.value, scope, env, ctx)
            self.exprs.append(Site(s, ctx))
        elif t is ast.AnnAssign:
            if s.value is not None:
                self._expr(s.value, scope, env, ctx)
                self._bind(s.target, s.value, scope, env, ctx)
        elif t is ast.AugAssign:
            self._expr(s.value, scope, env, ctx)
            self._expr(s.target, scope, env, ctx) if not isinstance(s.target, ast.Name) else None
            self._bind(s.target, UNKNOWN, scope, env, ctx)
        elif t is ast.Return:
            if s.value is not None:
                self._expr(s.value, scope, env, ctx)
                if ctx.func is not None:
                    self.returns[id(ctx.func)].append(s.value)
        elif t in (ast.For, ast.AsyncFor):
            self._expr(s.iter, scope, env, ctx)
            self.loops.append(Site(s, ctx))
            inner = Ctx(ctx.func, ctx.cls, ctx.loops + (s,), ctx.withs)
            body = dict(env)
            self._bind(s.target, UNKNOWN, scope, body, ctx)
            body = self._block(s.body, scope, body, inner)
            env = _merge(env, body)
            env = self._block(s.orelse, scope, env, ctx)
        elif t is ast.While:
            self._expr(s.test, scope, env, ctx)
            self.loops.append(Site(s, ctx))
            inner = Ctx(ctx.func, ctx.cls, ctx.loops + (s,), ctx.withs)
            env = _merge(env, self._block(s.body, scope, dict(env), inner))
            env = self._block(s.orelse, scope, env, ctx)
        elif t is ast.If:
            self._expr(s.test, scope, env, ctx)
            a = self._block(s.body, scope, dict(env), ctx)
            b = self._block(s.orelse, scope, dict(env), ctx)
            env = _merge(a, b)
        elif t in (ast.With, ast.AsyncWith):
            for item in s.items:
                self._expr(item.context_expr, scope, env, ctx)
                if item.optional_vars is not None:
                    self._bind(item.optional_vars, UNKNOWN, scope, env, ctx)
            self.withs.append(Site(s, ctx))
            env = self._block(s.body, scope, env, Ctx(ctx.func, ctx.cls, ctx.loops, ctx.withs + (s,)))
        elif t in _Func:
            for d in s.decorator_list:
                self._expr(d, scope, env, ctx)
            for d in (*s.args.defaults, *(x for x in s.args.kw_defaults if x is not None), *_annotations(s)):
                self._expr(d, scope, env, ctx)
            env[s.name] = (s,)
            self.functions.setdefault(s.name, []).append(s)
            self.func_ctx[id(s)] = ctx
            self._queue.append((s, scope, ctx))
        elif t is ast.ClassDef:
            for d in (*s.bases, *s.decorator_list, *(k.value for k in s.keywords)):
                self._expr(d, scope, env, ctx)
            env[s.name] = (s,)
            self.classes.setdefault(s.name, s)
            # the class body is its own scope; its methods see the enclosing scope, not it
            cscope = Scope(s, scope)
            cctx = Ctx(None, s, (), ())
            for b in s.body:
                if isinstance(b, _Func):
                    for d in (*b.decorator_list, *_annotations(b)):
                        self._expr(d, cscope, cscope.env, cctx)
                    self.functions.setdefault(b.name, []).append(b)
                    self.func_ctx[id(b)] = cctx
                    self._queue.append((b, scope, cctx))
                else:
                    cscope.env = self._stmt(b, cscope, cscope.env, cctx)
        elif t is ast.Try or t.__name__ == "TryStar":
            body = self._block(s.body, scope, dict(env), ctx)
            out = body
            for h in s.handlers:
                henv = dict(body)
                if h.name:
                    henv[h.name] = (UNKNOWN,)
                out = _merge(out, self._block(h.body, scope, henv, ctx))
            out = self._block(s.orelse, scope, out, ctx)
            env = self._block(s.finalbody, scope, out, ctx)
        elif t is ast.Import:
            for al in s.names:
                if al.asname:
                    env[al.asname] = (ImportRef(al.name),)
                else:
                    top = al.name.split(".", 1)[0]
                    env[top] = (ImportRef(top),)
        elif t is ast.ImportFrom:
            for al in s.names:
                if al.name == "*":
                    continue
                if s.level:  # relative import: a module of the user's own package
                    env[al.asname or al.name] = (UNKNOWN,)
                else:
                    env[al.asname or al.name] = (ImportRef(f"{s.module}.{al.name}"),)
        elif t.__name__ == "Match":
            self._expr(s.subject, scope, env, ctx)
            out = None
            for case in s.cases:
                cenv = self._block(case.body, scope, dict(env), ctx)
                out = cenv if out is None else _merge(out, cenv)
            env = _merge(env, out) if out is not None else env
        else:  # Raise, Assert, Delete, Global, Pass, Break, ...
            for child in ast.iter_child_nodes(s):
                if isinstance(child, ast.expr):
                    self._expr(child, scope, env, ctx)
        return env

    def _bind(self, tgt: ast.AST, value: Any, scope: Scope, env: dict, ctx: Ctx) -> None:
        t = type(tgt)
        if t is ast.Name:
            env[tgt.id] = (value,)
        elif t in (ast.Tuple, ast.List):
            same = isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(tgt.elts)
            for i, e in enumerate(tgt.elts):
                self._bind(e, value.elts[i] if same else UNKNOWN, scope, env, ctx)
        elif t is ast.Starred:
            self._bind(tgt.value, UNKNOWN, scope, env, ctx)
        elif t is ast.Attribute:
            self._expr(tgt.value, scope, env, ctx)
            v = tgt.value
            if ctx.cls is not None and isinstance(v, ast.Name) and ctx.func is not None:
                first = ctx.func.args.posonlyargs + ctx.func.args.args  # type: ignore[union-attr]
                if first and first[0].arg == v.id:
                    self.self_attrs.setdefault((ctx.cls.name, tgt.attr), []).append(value)
        else:  # Subscript and the like: only reads happen
            self._expr(tgt, scope, env, ctx)

    # ---- expressions --------------------------------------------------------------
    def _expr(self, node: ast.AST, scope: Scope, env: dict, ctx: Ctx) -> None:
        stack = [node]
        reach = self.reach
        push = stack.append
        # The commonest node types first, with their children pushed directly (this loop
        # visits every expression node of the file: it is the walker's hot path).
        while stack:
            n = stack.pop()
            if n is None:
                continue
            t = type(n)
            if t is _Name:
                if type(n.ctx) is _Load:
                    d = env.get(n.id)
                    reach[id(n)] = d if d is not None else scope
                continue
            if t is _Attribute:
                push(n.value)
                continue
            if t is _Constant:
                continue
            if t is _Call:
                self.calls.append(Site(n, ctx))
                push(n.func)
                stack.extend(n.args)
                for k in n.keywords:
                    push(k.value)
                continue
            if t is _BinOp:
                if type(n.op) is _Div:
                    self.divs.append(Site(n, ctx))
                elif type(n.op) is ast.Pow:
                    self.pows.append(Site(n, ctx))
                push(n.left)
                push(n.right)
                continue
            if t is _Subscript:
                push(n.value)
                push(n.slice)
                continue
            if t is ast.NamedExpr:
                self._expr(n.value, scope, env, ctx)
                env[n.target.id] = (n.value,)
                continue
            elif t is ast.Lambda:
                lenv = dict(env)
                for a in (*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs, n.args.vararg, n.args.kwarg):
                    if a is not None:
                        lenv[a.arg] = (UNKNOWN,)
                self._expr(n.body, scope, lenv, ctx)
                continue
            elif t in _Comp:
                cenv = dict(env)
                for g in n.generators:
                    self._expr(g.iter, scope, cenv, ctx)
                    self._bind(g.target, UNKNOWN, scope, cenv, ctx)
                    for c in g.ifs:
                        self._expr(c, scope, cenv, ctx)
                if t is ast.DictComp:
                    self._expr(n.key, scope, cenv, ctx)
                    self._expr(n.value, scope, cenv, ctx)
                else:
                    self._expr(n.elt, scope, cenv, ctx)
                continue
            if t is ast.Compare:
                self.compares.append(n)
            fields = _CHILDREN.get(t)
            if fields is None:
                fields = _CHILDREN[t] = _child_fields(t)
            for f in fields:
                v = getattr(n, f, None)
                if v is None:
                    continue
                if type(v) is list:
                    stack.extend(v)  # may hold None (Dict keys of ``**x``): skipped at pop
                else:
                    stack.append(v)
