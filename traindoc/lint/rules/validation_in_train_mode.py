"""TD508 validation-in-train-mode: a validation loop without model.eval() or torch.no_grad()."""

from __future__ import annotations

import ast
import re

from ..eval_words import FUNC_WORDS as _FUNC_WORDS, INFER_WORDS, LOOP_WORDS as _LOOP_WORDS, evals_before, \
    literal_words as _literal_words, passed_validation_data, pytest_file as _pytest_file, words as _words, \
    wrapped_validation
from ..grad_mode import body_no_grad, branch_in_train_mode, call_no_grad, decorated_no_grad, enclosing_no_grad, false_arg, \
    helper_no_grad, inference_in_train_mode, mode_index, may_be_module, partly_evaluated, \
    switched_modules, trained_never_evaluated
from ..registry import Hit, lint_rule
from ..source import text
from ..training import is_backward, is_step
from ..walk import walk

# Words that say train/eval mode matters in a file: dropout, batch norm, or a model from a
# library (torchvision/timm/transformers models have them).
_MODE_MATTERS = (b"ropout", b"BatchNorm", b"batch_norm", b"from_pretrained", b"models.", b"timm")
# What calling "the model" looks like: ``model(x)``, ``self.net(x)``, ``teacher_model(x)``;
# not ``self.gm.modules()`` or ``iterate_model_state(m)`` (a function that takes a model).
_RUN_METHODS = frozenset({"forward", "generate", "predict", "infer", "inference"})
# GAN and image-restoration code names its networks netG / netD / net_g (lower-cased here)
_GAN_NET = re.compile(r"net_?[a-z0-9]{1,2}$")
_MODEL_NAMES = frozenset(
    "model net network module encoder decoder classifier backbone generator discriminator policy critic".split()
)


@lint_rule(
    "validation-in-train-mode", "TD508", "warning",
    "a validation loop that runs the model without model.eval() or without torch.no_grad()",
    needles=[("val", "eval", "test", "dev", "no_grad", "inference_mode")],
    fix="call model.eval() before the loop (model.train() after it) and run it under torch.no_grad() "
        "(or torch.inference_mode())",
    confirm="evaluate the same batch twice: in train mode the outputs differ (dropout) and BatchNorm's running stats move",
)
def check(m):
    """What it detects: a loop over validation or test data (its iterable is named like
    `val_loader`, `valid_dl`, `loaders["test"]`, `eval_dataloader`, or a name set once to
    a wrapper of such data, `bar = tqdm(val_loader)`, or it sits in a function named like
    `validate`/`evaluate`, or in an inference function, `predict`, that calls `.eval()` itself,
    or in a helper only such functions call, outside their loops) that calls the model
    and does no `backward()` or optimizer step, when either `model.eval()` (or
    `.train(False)`) or `torch.no_grad()` / `torch.inference_mode()` is missing. The rule
    looks for them in the loop's function, around the loop, as a decorator, and in the
    same-file functions that call it; a `model.train()` between them undoes the `eval()`.
    The model runs as `model(x)`, `self.net(x)`, `model.generate(x)` or
    `model.forward(x)`, or through a method of the same class whose body runs it
    (`self._compute_loss(batch)`, shared with the training step); the finding points at the
    first such call in the loop. Also a
    per-batch validation function with no loop of its own (`def validation_step(self, x,
    y)`, named for validation and for a step or batch, or one that calls `model.eval()` itself,
    `eval_model`, a generated sample) that the file calls, that runs the
    model (directly or through a helper of the file) and that no call runs under no_grad:
    the finding points at its model call (methods of a class with a base, such as a
    LightningModule's, are not checked: the framework runs them under no_grad). Also one
    epoch function for both phases (`def run_epoch(model, loader, optimizer=None)`) whose
    backward and step run only under `if is_train:`, called once with training and once with
    validation data, with no `torch.set_grad_enabled(is_train)` or no_grad around its
    forward or the validation call: the finding points at the forward. Also inference in a
    method of a class (`with torch.no_grad(): value = self.critic(...)`, a PPO rollout) on an
    attribute another method puts in train mode (`self.critic.train()`) and no line of the
    file puts in eval mode (with no dropout or batch norm in sight, only in a method named for
    evaluation or called by one; never in a method a training function calls); and a module run after another one's `.eval()` in the same function
    (`model.eval()`, then `predictor(h)`) when the file trains it (`predictor.train()`) and never
    evaluates it; and a module run under no_grad in the branch of an `if` that does not train,
    after the function put it in train mode for both branches (`trainer.train()`, then `if
    phase == "train": ... backward() ... else: with torch.no_grad(): trainer(x)`). A missing `model.eval()` is not reported in a file with no dropout or batch norm in sight (no
    `Dropout`, `BatchNorm`, `dropout`, and no torchvision/timm/pretrained model), where eval
    mode changes nothing, unless the evaluation function itself calls `model.train()` (a
    model built elsewhere, put in train mode for evaluation: that call is the finding) or the file
    puts a module in train mode and never in eval mode (`phi.train()` before training, a model built
    elsewhere: its author knows the mode matters); a module the file switches is a model whatever
    its name (`phi(x)`).

    Why it happens: in train mode dropout stays on (validation metrics are noisy
    and pessimistic) and every BatchNorm layer overwrites its running mean and variance
    with validation batches, so the weights the next training steps and the final
    checkpoint use are tuned to data they never trained on; the validation loss can look
    better or worse than the truth, which breaks early stopping and model selection
    (cause `overfitting` diagnoses lean on it). Without no_grad autograd keeps every
    activation of the validation pass: roughly twice the memory and a slower loop, and a
    `loss` accumulated across batches keeps all their graphs alive until an OOM.

    Example:
        def evaluate(model, val_loader):
            total = 0.0
            for x, y in val_loader:                      # dropout on, BN stats updated, graphs kept
                total += F.cross_entropy(model(x), y)
            return total / len(val_loader)

    How to fix:
        @torch.no_grad()
        def evaluate(model, val_loader):
            model.eval()
            ...
            model.train()
    """
    if b"torch" not in m.source:
        return  # no model of torch's here (an LLM queried over HTTP, a scikit-learn loop)
    index = None
    for site in m.w.loops:
        it = _validation_iterable(m, site)
        if it is None:
            continue
        loop, fn = site.node, site.ctx.func
        if index is None:
            index = mode_index(m)  # one pass over the file's calls, only for a file with a validation loop
        evals, no_grads, callers = index
        chain = [fn, *callers.get(id(fn), ())] if fn is not None else [None]
        undo = _train_mode_last(m, fn, loop)
        had_eval = any(id(f) in evals for f in chain)
        has_eval = had_eval and undo is None
        has_nograd = (enclosing_no_grad(m, site.ctx.withs) or any(id(f) in no_grads for f in chain)
                      or body_no_grad(m, loop))
        # a `.train()` call in an evaluation function (one that does not train) is the line
        # to change (to `.eval()`); before a training loop it is right, and the forward is
        switched = not had_eval and undo is not None and fn is not None and not _trains(m, fn) \
            and not _deliberate_train_mode(m, fn, loop)
        if not has_eval and not switched and not any(w in m.source for w in _MODE_MATTERS) \
                and (undo is not None or not trained_never_evaluated(m)):  # train() here: on purpose
            has_eval = True  # no dropout or BatchNorm in sight: eval mode would change nothing
            # (unless the evaluation itself asks for train mode: its author thinks it matters)
        missing = [w for w, ok in (("model.eval()", has_eval), ("torch.no_grad()", has_nograd)) if not ok]
        if not missing:
            continue
        why = []
        if had_eval and undo is not None:
            why.append(f"`{text(undo.func)}()` on line {undo.lineno} switches train mode back on before it")
        if not has_eval:
            why.append("dropout stays on and BatchNorm updates its running stats with validation data")
        if not has_nograd:
            why.append("autograd keeps every activation (memory, time)")
        if switched:
            why.insert(0, f"`{text(undo.func)}()` puts the model in train mode for it")
        at = undo if switched else _model_call(m, loop) or loop
        yield Hit(at,
                  f"validation loop over `{it or 'data'}` without {' or '.join(missing)}: {'; '.join(why)}")
    yield from _batch_functions(m, index)
    yield from _shared_epochs(m)
    seen = any(w in m.source for w in _MODE_MATTERS)
    if seen or trained_never_evaluated(m):  # train() said without dropout in sight: only code named to evaluate
        for call, fn, train, ev in [*inference_in_train_mode(m), *partly_evaluated(m)]:
            who, why = ast.unparse(call.func), "runs under no_grad in `{}()` (inference)"
            if ev is not None:  # model.eval(); predictor(h): the second module was forgotten
                why = f"runs in `{{}}()` after `{ast.unparse(ev.func)}()` (line {ev.lineno}), which leaves it out,"
            callers = [s.ctx.func for s in m.w.calls if any(s.node is c for c in m.call_sites(fn))]
            if not _trains(m, fn) and not any(f is not None and _trains(m, f) for f in callers) and (seen or any(
                    _words(getattr(f, "name", "")) & _FUNC_WORDS for f in (fn, *callers))):
                yield Hit(call, f"`{who}` {why.format(fn.name)} while it is in train mode: `{ast.unparse(train.func)}()` "
                                f"on line {train.lineno} and no `{who}.eval()` anywhere in the file, so dropout stays "
                                f"on and BatchNorm updates its running stats; call {who}.eval() before it (and "
                                ".train() before training)")
        for call, train in branch_in_train_mode(m):
            yield Hit(call, f"`{ast.unparse(call.func)}` runs under no_grad in the branch that does not train, in train mode from `{ast.unparse(train.func)}()` (line {train.lineno}): dropout stays on, BatchNorm updates its stats; call .eval() there")  # noqa: E501


def _batch_functions(m, index):
    """A per-batch validation function with no loop of its own (``def validation_step(self,
    x, y)``) that this file calls, runs the model and records a graph: no call of it is under
    no_grad. Methods of classes with a base (a LightningModule's ``validation_step``, which
    the framework runs under no_grad and eval) are not checked."""
    looped = {id(s.ctx.func) for s in m.w.loops}
    for name, fns in m.w.functions.items():
        w = _words(name)
        if not w & _FUNC_WORDS:
            continue  # per batch by its name: validation_step, eval_batch (not log_validation),
        if index is None:  # or one that puts the model in eval mode itself (eval_model: a sample)
            index = mode_index(m)
        for fn in fns:
            if not w & {"step", "batch"} and id(fn) not in index[0]:
                continue
            cls = m.w.func_ctx[id(fn)].cls
            if id(fn) in looped or cls is not None and cls.bases or not m.call_sites(fn) or _trains(m, fn):
                continue
            # the model run in the function's own body (a factory's inner step is not it),
            # directly or through a helper of the file (self.infer(x))
            run = next((s.node for s in m.w.calls if s.ctx.func is fn and _runs_model(m, s.node, 1)), None)
            if run is None:
                continue
            evals, no_grads, callers = index
            if any(id(f) in no_grads for f in (fn, *callers.get(id(fn), ()))) or call_no_grad(m, run) \
                    or helper_no_grad(m, run):
                continue
            yield Hit(run, f"`{fn.name}` runs the model without torch.no_grad() (no call of it is under no_grad): "
                           "autograd keeps every activation of the evaluation pass (memory, time)")


def _shared_epochs(m):
    """``def run_epoch(model, loader, optimizer=None)``: one loop for both phases whose
    backward and step run only under ``if is_train:``, called in this file with validation
    data (or the flag off), with no ``torch.set_grad_enabled(is_train)`` / no_grad around the
    forward or around the validation call: its validation pass records a graph."""
    done = set()
    for site in m.w.loops:
        loop, fn = site.node, site.ctx.func
        if fn is None or id(fn) in done or not isinstance(loop, (ast.For, ast.While)):
            continue
        gate = _training_gate(m, loop)
        run = _model_call(m, loop) if gate is not None else None
        if run is None or call_no_grad(m, run) or body_no_grad(m, loop) or enclosing_no_grad(m, site.ctx.withs):
            continue
        flag = {n.id for n in walk(gate) if isinstance(n, ast.Name)}
        params = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
        derived = {t.id for n in walk(fn) if isinstance(n, ast.Assign) and any(
            isinstance(x, ast.Name) and x.id in params for x in walk(n.value)) for t in n.targets
            if isinstance(t, ast.Name)}
        if not flag & (params | derived) or decorated_no_grad(m, fn) \
                or any(text(c.func).endswith("set_grad_enabled") for c in walk(fn) if isinstance(c, ast.Call)):
            continue
        calls = m.call_sites(fn)
        val = [c for c in calls if _validation_call(c)]
        if not val or len(val) == len(calls) or all(call_no_grad(m, c) for c in val):
            continue
        done.add(id(fn))
        yield Hit(run, f"`{fn.name}` trains only under `if {text(gate)}:` and also runs validation (line "
                       f"{val[0].lineno}), but the forward is not under torch.set_grad_enabled({text(gate)}) or "
                       "no_grad: the validation pass records a graph (memory, time)",
                  related=((val[0], "the validation call"),))


def _training_gate(m, loop):
    """The test of the one ``if`` whose body holds every backward() and optimizer step of the loop."""
    trains = [n for n in walk(loop) if isinstance(n, ast.Call) and (is_backward(m, n) or is_step(m, n))]
    if not trains:
        return None
    ifs = [n for n in walk(loop) if isinstance(n, ast.If) and not isinstance(n.test, ast.Constant)]
    gates = {id(n.test): n.test for n in ifs for t in trains if any(t is x for b in n.body for x in walk(b))}
    for test in gates.values():
        holder = [n for n in ifs if n.test is test]
        inside = {id(x) for n in holder for b in n.body for x in walk(b)}
        if all(id(t) in inside for t in trains):
            return test
    # a gate per call (``if is_train: opt.zero_grad()`` ... ``if is_train: loss.backward()``): one text for all
    texts = {text(n.test) for n in ifs if any(t is x for b in n.body for x in walk(b) for t in trains)}
    if len(texts) == 1 and all(any(t is x for n in ifs if text(n.test) in texts for b in n.body for x in walk(b))
                               for t in trains):
        return next(n.test for n in ifs if text(n.test) in texts)
    return None


def _validation_call(call: ast.Call) -> bool:
    """A call that runs the validation phase: validation data passed, or the training flag off."""
    args = list(call.args) + [k.value for k in call.keywords]
    return any(_words(text(a) or _literal_words(a)) & _LOOP_WORDS for a in args) or any(
        isinstance(k.value, ast.Constant) and k.value.value in (False, None) and _words(k.arg or "") & {
            "train", "training", "is", "optimizer", "opt"} for k in call.keywords)


def _validation_iterable(m, site) -> str | None:
    """The text of what a validation loop iterates ('' when it has no text), or None for a
    loop that does not validate a model (named for training, a pytest test, or it trains)."""
    loop = site.node
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return None
    fname = getattr(site.ctx.func, "name", "") or ""
    if fname.startswith("test_") and _pytest_file(m):
        return None  # a pytest test: it checks the model, it does not validate a run
    it = text(loop.iter) or _literal_words(loop.iter)
    fwords = _words(fname)
    if not (_words(f"{it} {_literal_words(loop.iter)}") & _LOOP_WORDS or fwords & _FUNC_WORDS
            or "test" in fwords and not _pytest_file(m) or passed_validation_data(m, loop.iter)
            or wrapped_validation(m, loop.iter) or fwords & INFER_WORDS and evals_before(site.ctx.func, loop)
            or _evaluation_callers(m, site.ctx.func)):
        return None  # def test(model, X): ... outside a test module evaluates
    if _model_call(m, loop) is None or _trains(m, loop):
        return None
    whole = ast.unparse(loop.iter)  # tqdm(range(len(test_set))) rather than `tqdm`
    return whole if isinstance(loop.iter, ast.Call) and len(whole) <= 60 else it


def _evaluation_callers(m, fn) -> bool:
    """Every call of the function in the file sits in an evaluation function, outside its
    loops: ``evaluate()`` calls ``extract_feature(model, gallery_loader)``, whose loop is the
    evaluation's (a helper called per batch inside the caller's loop is judged there)."""
    sites = m.call_sites(fn) if fn is not None else ()
    owner = m.memo.get("validation-in-train-mode.owner")
    if owner is None:
        owner = m.memo["validation-in-train-mode.owner"] = {id(s.node): s.ctx for s in m.w.calls}
    ctxs = [owner.get(id(c)) for c in sites]
    return bool(ctxs) and all(c is not None and not c.loops and _words(getattr(c.func, "name", "")) & _FUNC_WORDS
                              for c in ctxs)


def _train_mode_last(m, fn, loop):
    """The last mode switch before the loop in its function is ``.train()``: ``model.eval()``
    then ``model.train()`` again before the validation loop runs (it undoes the eval)."""
    last = None
    for site in m.w.calls:
        call = site.node
        f = call.func
        if site.ctx.func is not fn or not isinstance(f, ast.Attribute) or call.lineno >= loop.lineno:
            continue
        if (f.attr == "eval" and not call.args or f.attr == "train") and may_be_module(f.value):
            if last is None or call.lineno > last.lineno:
                last = call
    return last if last is not None and last.func.attr == "train" and not false_arg(last) else None


def _model_call(m, loop):
    """The first call in the loop that runs the model (the line the finding points at: the
    forward pass that runs in train mode or records a graph), or None."""
    memo = m.memo.setdefault("validation-in-train-mode.model", {})
    if id(loop) not in memo:
        calls = [n for n in walk(loop) if isinstance(n, ast.Call)]
        runs = [n for n in calls if _runs_model(m, n)] or [
            n for n in calls if any(_model_named(a) for a in n.args) and _runs_model(m, n, 1)
            and not _sets_mode(m, n)] or [
            # a method of the same class that runs the model (`self._compute_loss(batch)`,
            # shared by the training step) and sets no mode of its own
            n for n in calls if isinstance(n.func, ast.Attribute) and text(n.func.value) == "self"
            and _runs_model(m, n, 1) and not _sets_mode(m, n)]
        memo[id(loop)] = min(runs, key=lambda n: (n.lineno, n.col_offset)) if runs else None
    return memo[id(loop)]


def _sets_mode(m, call) -> bool:
    """The helper the model is passed to sets its own mode (``model.eval()``, ``no_grad``,
    ``.train()``): it is judged as its own function, not as part of the caller's loop."""
    c = m.callee(call)
    fn = c[1][1] if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "func" else None
    return fn is None or any(isinstance(x, ast.Call) and (text(x.func) or "").rsplit(".", 1)[-1] in (
        "eval", "train", "no_grad", "inference_mode", "set_grad_enabled") for x in walk(fn))


def _model_named(a) -> bool:
    """An argument named like the model (``predict(model, src)``: a helper that runs it)."""
    last = (text(a) or "").lower().rsplit(".", 1)[-1]
    return isinstance(a, (ast.Name, ast.Attribute)) and (last in _MODEL_NAMES or last.endswith(("_model", "_net")))


def _runs_model(m, n: ast.Call, depth: int = 0) -> bool:
    c = m.callee(n)
    if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "class":
        return False  # Model(...) builds a model, it does not run one
    if depth > 0 and c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "func" \
            and any(isinstance(x, ast.Call) and _runs_model(m, x, 0) for x in walk(c[1][1])):
        return True  # self.infer(x) whose body runs the model (one level: not a helper's helper)
    if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] in ("local", "seq"):
        return True
    if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "inst" and c[1][1].startswith("torch.nn.") \
            and not c[1][1].endswith("Loss"):
        return True
    if isinstance(n.func, (ast.Name, ast.Attribute)) and c[0] != "fn":
        parts = text(n.func).lower().rsplit(".", 2)
        if len(parts) > 1 and (parts[-1] in _RUN_METHODS or parts[-1].endswith("_forward")):
            parts.pop()  # model.generate(x), self.net.forward(x): the model runs too
        last = parts[-1].rstrip("_")  # scikit-learn style fitted attributes: self.module_
        return last in _MODEL_NAMES or last.endswith(("_model", "_net")) or last.startswith("model_") \
            or _GAN_NET.match(last) is not None or text(n.func) in switched_modules(m)
    return False


def _trains(m, node, depth: int = 0) -> bool:
    """backward() or an optimizer step in the loop, or in this file's functions it calls (two levels)."""
    memo = m.memo.setdefault("validation-in-train-mode.trains", {})
    for n in walk(node):
        if isinstance(n, ast.Call):
            if is_backward(m, n) or is_step(m, n):
                return True
            if depth < 2:
                c = m.callee(n)
                if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "func":
                    fn = c[1][1]
                    if id(fn) not in memo:
                        memo[id(fn)] = False  # recursion: "not yet"
                        memo[id(fn)] = _trains(m, fn, depth + 1)
                    if memo[id(fn)]:
                        return True
    return False


# Train mode on purpose in an evaluation: Monte-Carlo dropout, BatchNorm recalibration.
_DELIBERATE = re.compile(r"mc|monte|carlo|uncertain|bayes|sample|recalib|bn|batchnorm|bn_stats|precise")


def _deliberate_train_mode(m, fn, loop) -> bool:
    """``model.train()`` for a reason: the function or loop is named for MC dropout or
    BatchNorm statistics (``evaluate_mc``, ``n_samples``, ``update_bn``), the loop runs over
    training data (recalibrating BatchNorm), or it calls the model more than once per batch
    (MC sampling)."""
    words = _words(getattr(fn, "name", "")) | _words(text(loop.iter) or _literal_words(loop.iter))
    if any(_DELIBERATE.fullmatch(w) or w.startswith(("mc", "sample")) for w in words) or "train" in words:
        return True
    calls = [n for n in walk(loop) if isinstance(n, ast.Call) and _runs_model(m, n)]
    inner = {id(x) for c in calls for x in walk(c) if x is not c}  # net(x) inside net(x).argmax(1)
    runs = [c for c in calls if id(c) not in inner]
    repeated = (ast.For, ast.While, ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)
    return len(runs) > 1 or any(isinstance(n, repeated) and n is not loop and any(
        c is x for c in runs for x in walk(n)) for n in walk(loop))
