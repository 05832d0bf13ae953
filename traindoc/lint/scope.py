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
from typing import Any, Callable

from .bindings import UNKNOWN, Ctx, Elt, ImportRef, Param, Scope, Site, merge

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


class Walker:
    """Fills ``reach``, ``calls``, ``loops``, ``divs``, ``withs``, ``exprs``, ``compares`` and the
    class/function tables."""

    def __init__(self) -> None:
        self.reach: dict[int, Any] = {}  # id(Name load) -> tuple of defs | Scope (free name)
        self.calls: list[Site] = []
        self.loops: list[Site] = []
        self.divs: list[Site] = []  # BinOp with Div
        self.aug_divs: list[Site] = []  # AugAssign with Div (x /= d)
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
        # a method (defined in the class body), not a function nested in one: its first
        # parameter is the instance
        bound = ctx.cls is not None and ctx.func is None and bool(params) and not any(
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

    def _stmt(self, s: ast.stmt, scope: Scope, env: dict, ctx: Ctx) -> dict:
        """Walk one statement; the bindings after it (a new dict where branches merge)."""
        return _STMT.get(type(s), Walker._plain)(self, s, scope, env, ctx)

    def _assign(self, s: ast.Assign, scope: Scope, env: dict, ctx: Ctx) -> dict:
        self._expr(s.value, scope, env, ctx)
        for tgt in s.targets:
            self._bind(tgt, s.value, scope, env, ctx)
        return env

    def _expr_stmt(self, s: ast.Expr, scope: Scope, env: dict, ctx: Ctx) -> dict:
        self._expr(s.value, scope, env, ctx)
        self.exprs.append(Site(s, ctx))
        return env

    def _ann_assign(self, s: ast.AnnAssign, scope: Scope, env: dict, ctx: Ctx) -> dict:
        if s.value is not None:
            self._expr(s.value, scope, env, ctx)
            self._bind(s.target, s.value, scope, env, ctx)
        return env

    def _aug_assign(self, s: ast.AugAssign, scope: Scope, env: dict, ctx: Ctx) -> dict:
        if type(s.op) is ast.Div:
            self.aug_divs.append(Site(s, ctx))
        self._expr(s.value, scope, env, ctx)
        if not isinstance(s.target, ast.Name):
            self._expr(s.target, scope, env, ctx)
        self._bind(s.target, UNKNOWN, scope, env, ctx)
        return env

    def _return(self, s: ast.Return, scope: Scope, env: dict, ctx: Ctx) -> dict:
        if s.value is not None:
            self._expr(s.value, scope, env, ctx)
            if ctx.func is not None:
                self.returns[id(ctx.func)].append(s.value)
        return env

    def _for(self, s: ast.For, scope: Scope, env: dict, ctx: Ctx) -> dict:
        self._expr(s.iter, scope, env, ctx)
        self.loops.append(Site(s, ctx))
        inner = Ctx(ctx.func, ctx.cls, ctx.loops + (s,), ctx.withs)
        body = dict(env)
        self._bind(s.target, UNKNOWN, scope, body, ctx)
        body = self._block(s.body, scope, body, inner)
        env = merge(env, body)
        return self._block(s.orelse, scope, env, ctx)

    def _while(self, s: ast.While, scope: Scope, env: dict, ctx: Ctx) -> dict:
        self._expr(s.test, scope, env, ctx)
        self.loops.append(Site(s, ctx))
        inner = Ctx(ctx.func, ctx.cls, ctx.loops + (s,), ctx.withs)
        env = merge(env, self._block(s.body, scope, dict(env), inner))
        return self._block(s.orelse, scope, env, ctx)

    def _if(self, s: ast.If, scope: Scope, env: dict, ctx: Ctx) -> dict:
        self._expr(s.test, scope, env, ctx)
        a = self._block(s.body, scope, dict(env), ctx)
        b = self._block(s.orelse, scope, dict(env), ctx)
        return merge(a, b)

    def _with(self, s: ast.With, scope: Scope, env: dict, ctx: Ctx) -> dict:
        for item in s.items:
            self._expr(item.context_expr, scope, env, ctx)
            if item.optional_vars is not None:
                self._bind(item.optional_vars, UNKNOWN, scope, env, ctx)
        self.withs.append(Site(s, ctx))
        return self._block(s.body, scope, env, Ctx(ctx.func, ctx.cls, ctx.loops, ctx.withs + (s,)))

    def _def(self, s: ast.FunctionDef, scope: Scope, env: dict, ctx: Ctx) -> dict:
        for d in s.decorator_list:
            self._expr(d, scope, env, ctx)
        for d in (*s.args.defaults, *(x for x in s.args.kw_defaults if x is not None), *_annotations(s)):
            self._expr(d, scope, env, ctx)
        env[s.name] = (s,)
        self.functions.setdefault(s.name, []).append(s)
        self.func_ctx[id(s)] = ctx
        self._queue.append((s, scope, ctx))
        return env

    def _class(self, s: ast.ClassDef, scope: Scope, env: dict, ctx: Ctx) -> dict:
        for d in (*s.bases, *s.decorator_list, *(k.value for k in s.keywords)):
            self._expr(d, scope, env, ctx)
        env[s.name] = (s,)
        self.classes.setdefault(s.name, s)
        # the class body is its own scope; its methods see the enclosing scope, not it
        cscope = Scope(s, scope)
        cctx = Ctx(None, s, (), ())
        for b in s.body:
            if isinstance(b, _Func):
                # defaults run once, at class creation, in the class scope (a loss module
                # built as a default argument is a call the rules must see)
                for d in (*b.decorator_list, *b.args.defaults, *(x for x in b.args.kw_defaults if x is not None),
                          *_annotations(b)):
                    self._expr(d, cscope, cscope.env, cctx)
                self.functions.setdefault(b.name, []).append(b)
                self.func_ctx[id(b)] = cctx
                self._queue.append((b, scope, cctx))
            else:
                cscope.env = self._stmt(b, cscope, cscope.env, cctx)
        return env

    def _try(self, s: ast.Try, scope: Scope, env: dict, ctx: Ctx) -> dict:
        body = self._block(s.body, scope, dict(env), ctx)
        out = body
        for h in s.handlers:
            henv = dict(body)
            if h.name:
                henv[h.name] = (UNKNOWN,)
            out = merge(out, self._block(h.body, scope, henv, ctx))
        out = self._block(s.orelse, scope, out, ctx)
        return self._block(s.finalbody, scope, out, ctx)

    def _import(self, s: ast.Import, scope: Scope, env: dict, ctx: Ctx) -> dict:
        for al in s.names:
            if al.asname:
                env[al.asname] = (ImportRef(al.name),)
            else:
                top = al.name.split(".", 1)[0]
                env[top] = (ImportRef(top),)
        return env

    def _import_from(self, s: ast.ImportFrom, scope: Scope, env: dict, ctx: Ctx) -> dict:
        for al in s.names:
            if al.name == "*":
                continue
            if s.level:  # relative import: a module of the user's own package
                env[al.asname or al.name] = (UNKNOWN,)
            else:
                env[al.asname or al.name] = (ImportRef(f"{s.module}.{al.name}"),)
        return env

    def _match(self, s: Any, scope: Scope, env: dict, ctx: Ctx) -> dict:
        self._expr(s.subject, scope, env, ctx)
        out = None
        for case in s.cases:
            cenv = self._block(case.body, scope, dict(env), ctx)
            out = cenv if out is None else merge(out, cenv)
        return merge(env, out) if out is not None else env

    def _plain(self, s: ast.stmt, scope: Scope, env: dict, ctx: Ctx) -> dict:
        """Raise, Assert, Delete, Global, Pass, Break, ...: only reads."""
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
            # a call's result unpacked with no starred target: kinds can read the callee's tuple
            call = isinstance(value, ast.Call) and not any(isinstance(e, ast.Starred) for e in tgt.elts)
            for i, e in enumerate(tgt.elts):
                v = value.elts[i] if same else Elt(value, i) if call else UNKNOWN
                self._bind(e, v, scope, env, ctx)
        elif t is ast.Starred:
            self._bind(tgt.value, UNKNOWN, scope, env, ctx)
        elif t is ast.Attribute:
            self._expr(tgt.value, scope, env, ctx)
            v = tgt.value
            if ctx.cls is not None and isinstance(v, ast.Name) and self.func_ctx.get(id(ctx.func)) is not None \
                    and self.func_ctx[id(ctx.func)].func is None:  # in a method, not a function nested in one
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
            binds = _BINDING_EXPR.get(t)
            if binds is not None:  # walrus, lambda, comprehension: names of their own
                binds(self, n, scope, env, ctx)
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

    def _walrus(self, n: ast.NamedExpr, scope: Scope, env: dict, ctx: Ctx) -> None:
        self._expr(n.value, scope, env, ctx)
        env[n.target.id] = (n.value,)

    def _lambda(self, n: ast.Lambda, scope: Scope, env: dict, ctx: Ctx) -> None:
        lenv = dict(env)
        for a in (*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs, n.args.vararg, n.args.kwarg):
            if a is not None:
                lenv[a.arg] = (UNKNOWN,)
        self._expr(n.body, scope, lenv, ctx)

    def _comprehension(self, n: Any, scope: Scope, env: dict, ctx: Ctx) -> None:
        cenv = dict(env)
        for g in n.generators:
            self._expr(g.iter, scope, cenv, ctx)
            self._bind(g.target, UNKNOWN, scope, cenv, ctx)
            for c in g.ifs:
                self._expr(c, scope, cenv, ctx)
        if type(n) is ast.DictComp:
            self._expr(n.key, scope, cenv, ctx)
            self._expr(n.value, scope, cenv, ctx)
        else:
            self._expr(n.elt, scope, cenv, ctx)


# One handler per statement type (exact type, as the pass never meets subclasses); any
# other statement only reads (Walker._plain). A dict lookup replaces a chain of 15 tests.
_STMT: dict[type, Callable[..., dict]] = {
    ast.Assign: Walker._assign, ast.Expr: Walker._expr_stmt, ast.AnnAssign: Walker._ann_assign,
    ast.AugAssign: Walker._aug_assign, ast.Return: Walker._return,
    ast.For: Walker._for, ast.AsyncFor: Walker._for, ast.While: Walker._while, ast.If: Walker._if,
    ast.With: Walker._with, ast.AsyncWith: Walker._with,
    ast.FunctionDef: Walker._def, ast.AsyncFunctionDef: Walker._def, ast.ClassDef: Walker._class,
    ast.Try: Walker._try, ast.Import: Walker._import, ast.ImportFrom: Walker._import_from,
    ast.Match: Walker._match,
}
if hasattr(ast, "TryStar"):  # Python 3.11+: try/except* binds like try/except
    _STMT[ast.TryStar] = Walker._try
# Expressions that bind names: a walrus in the enclosing bindings, a lambda or a
# comprehension in a copy of them (their names do not leak out).
_BINDING_EXPR: dict[type, Callable[..., None]] = {
    ast.NamedExpr: Walker._walrus, ast.Lambda: Walker._lambda,
    **{t: Walker._comprehension for t in _Comp},
}
