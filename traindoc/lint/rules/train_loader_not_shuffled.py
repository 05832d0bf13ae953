"""TD527 train-loader-not-shuffled: a training DataLoader without shuffle=True or a sampler."""

from __future__ import annotations

import ast
import re

from .. import names as N
from ..flow import helper_function, params_given
from ..grad_mode import eval_context
from ..registry import Hit, lint_rule
from ..source import keyword, may_be, text
from ..walk import walk

_LOOK = frozenset({"visualize", "visualise", "plot", "show", "inspect", "debug", "stats", "statistics"})
# an RL replay/rollout buffer holds experience in the order it was collected (consecutive
# steps of one episode): a loader over it that the same function trains on needs shuffling
_BUFFER = re.compile(r"(^|_)(replay|rollouts?|experiences?|memory)(_|$)|^buffer$")
_TRAIN = re.compile(r"(^|[^a-z])(train|training|trn)([^a-z]|$)|^train|train$")


@lint_rule(
    "train-loader-not-shuffled", "TD527", "info",
    "a DataLoader over the training set that leaves shuffle at its default (False) and has no sampler",
    needles=[("DataLoader",), ("train", "DistributedSampler", "replay", "experience", "rollout")],
    fix="DataLoader(train_set, batch_size=..., shuffle=True) (or a sampler: DistributedSampler(train_set, shuffle=True))",
    confirm="print the labels of the first batches: they come in dataset order (often sorted by class)",
)
def check(m):
    """What it detects: `torch.utils.data.DataLoader(...)` (or PyG's / DGL's graph loader,
    the same signature and default) whose dataset is named like a
    training set (`train_ds`, `trainset`, `dataset_train`, `self.train_data`, a dataset
    class built from one: `TextDataset(train_examples)`), or that a function named for it
    returns (`train_dataloader`, `create_train_dataloader`), and that
    passes no `shuffle` at all (the default is False) and no `sampler` / `batch_sampler`.
    An explicit `shuffle=False` is taken as deliberate (an evaluation pass over the training
    set, a time series) unless the same function's loop then trains on the loader (`for x, y
    in train_loader: ... loss.backward()`; the finding is on the `shuffle=False` line;
    loaders named for sequences, windows, text or tokens are left alone, their order can be
    the point), or passes it to a same-file function whose loop trains on it (`train(loader,
    model, ...)`). With `shuffle=False` said and that training loop in sight, a dataset
    built with random augmentation (`transform=` a `Random*` transform) counts as a training
    set whatever its name, and so does a replay or rollout buffer (`replay_buffer`,
    `experience`: consecutive steps of one episode) the same function trains on, and a loader
    bound to a training name (`self.train_loader = DataLoader(self.dataset, ...)`) that the
    same function's loop then trains on, whatever its dataset is called (darts' forecaster:
    windows of one series in time order). Loaders
    built in evaluation, test, plotting or inspection
    functions are not flagged. Also, whatever the names: a loader factory
    whose shuffling comes only from a `DistributedSampler` (`sampler=DistributedSampler(ds)
    if rank != -1 else None` and no `shuffle`, or a non-distributed branch that builds the
    loader over the same dataset with neither sampler nor shuffle; also when both pass the same
    `**kwargs`: DataLoader refuses a sampler together with shuffle, so they carry none), YOLOv5's and
    MMDetection's single-GPU bug. A loader built from `**kwargs`, or over a dataset class of the
    file that is an `IterableDataset` (which cannot be shuffled by the loader) is not
    flagged. Severity info: ordered training data is sometimes deliberate (curricula,
    time series), but usually an oversight.

    Why it happens: without shuffling every epoch presents the samples in the
    same order, often grouped by class or by source (a folder per class): consecutive
    batches are highly correlated, the gradient swings from one class to the next, the
    loss curve shows a saw-tooth pattern per epoch, and the model ends biased towards the
    classes it saw last (cause `loss-oscillation`, `slow-learning`).

    Example:
        train_loader = DataLoader(train_set, batch_size=64)          # shuffle defaults to False

    How to fix:
        train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
    """
    for site in m.w.calls:
        call = site.node
        if not may_be(call, ("DataLoader",)):
            continue
        c = m.callee(call)
        if c[0] != "fn" or c[1] not in N.DATALOADER | N.GRAPH_DATALOADER:
            continue
        star = next((text(k.value) for k in call.keywords if k.arg is None), None)
        if any(isinstance(a, ast.Starred) for a in call.args) or len(call.args) > 2:
            continue  # shuffle / sampler passed by position, or unknown
        fn = site.ctx.func
        if eval_context(m, site.ctx) or fn is not None and set(fn.name.lower().split("_")) & _LOOK:
            continue  # a loader to evaluate, plot or inspect with
        why = _undistributed_path(m, call, fn, star)
        if star is not None and why is None:
            continue  # **kwargs may carry shuffle
        if why is not None:
            yield Hit(call, f"DataLoader without shuffle whose shuffling comes only from a DistributedSampler: {why}, "
                            "so single-process training sees the samples in the same order every epoch; pass "
                            "shuffle=(sampler is None)")
            continue
        ds = call.args[0] if call.args else keyword(call, "dataset")
        last = _name(ds).rsplit(".", 1)[-1].lower()
        if isinstance(ds, ast.Call) and ds.args and not _TRAIN.search(last):
            last = _name(ds.args[0]).rsplit(".", 1)[-1].lower()  # PromptDataset(train_examples, ...)
        own = _bound_to(m, call).rsplit(".", 1)[-1].lower()  # train_loader = DataLoader(ds, ...)
        # a split picked by key (dataset["train"]) counts where the loader is itself a training
        # one by name (train_loader = ..., def train_dataloader): the same split also feeds
        # statistics and initialisation passes (PEFT's EVA init), whose order does not matter
        keyed = isinstance(ds, ast.Subscript) and not (_TRAIN.search(own) or fn is not None and _TRAIN.search(fn.name))
        sh = keyword(call, "shuffle")
        off = isinstance(sh, ast.Constant) and sh.value is False
        if ds is None or keyed or not (_TRAIN.search(last) and not last.startswith("trainer")
                                       or _TRAIN.search(own) and not own.startswith("trainer") and _reads_files(m, ds)
                                       or _loader_factory(fn) and not _generated(m, ds)
                                       or off and _augmented(m, ds)
                                       or sh is None and (_BUFFER.search(last) or _TRAIN.search(own)
                                                          and not own.startswith("trainer")) and _trains_on(m, call, fn)):
            continue
        if keyword(call, "sampler") is not None or keyword(call, "batch_sampler") is not None:
            continue
        if sh is not None and not (off and _trains_on(m, call, fn)):
            continue  # shuffle said explicitly: a deliberate order (or a pass over the training set to evaluate)
        if _iterable(m, ds):
            continue
        if sh is not None:
            yield Hit(sh, f"DataLoader over `{_name(ds)}` with shuffle=False, iterated by the training loop below: "
                          "every epoch sees the training samples in the same order (often grouped by class); "
                          "pass shuffle=True or a sampler")
            continue
        order = ("the order it was collected in (consecutive steps of an episode)" if _BUFFER.search(last)
                 else "the same order (often grouped by class)")
        yield Hit(call, f"DataLoader over `{_name(ds)}` without shuffle (default False): every epoch sees the training samples "
                        f"in {order}; pass shuffle=True or a sampler")


_READS = (b"open(", b"imread", b"read_csv", b"load(", b"listdir", b"glob(", b"read_image", b"decode")


def _reads_files(m, ds) -> bool:
    """The dataset is an instance of a Dataset class of this file that reads files (images in
    folders, a CSV): such files come sorted, usually by class. A dataset that generates its
    samples (random parity bits, a bug report's RandomDataset) has no order to shuffle."""
    e = ds
    if isinstance(ds, ast.Name):
        d = m.defs(ds)
        e = d[0] if d and len(d) == 1 else None
    k = m.kind(e) if e is not None else None
    if not (isinstance(k, tuple) and k[0] == "local"):
        return False
    seg = m.source.splitlines()[k[1].lineno - 1:k[1].end_lineno]
    return any(r in line for line in seg for r in _READS)


def _trains_on(m, call, fn) -> bool:
    """``shuffle=False`` on a loader over the training set that the same function's training
    loop then iterates (``for x, y in train_loader: ... loss.backward()``): not a pass to
    evaluate with. Time series loaders are left alone (their order can be the point)."""
    own = _bound_to(m, call)
    if fn is None or not own or re.search(r"seq|series|time|window|stream|lm|text|token", own.lower()):
        return False
    if _loops_backward(fn, own):
        return True
    # train(loader, model, ...): a same-file function whose loop over that parameter trains
    for c in walk(fn):
        if isinstance(c, ast.Call) and any(text(a) == own for a in c.args):
            helper = helper_function(m, c)
            if helper is not None and any(_loops_backward(helper, p) for a, p in params_given(helper, c) if a == own):
                return True
    return False


def _loops_backward(fn, name: str) -> bool:
    """``fn`` has a ``for ... in <name>`` loop (or over enumerate/tqdm of it) that calls backward()."""
    return any(isinstance(lp, ast.For) and name in {text(x) for x in walk(lp.iter)} and any(
        isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "backward"
        for b in lp.body for c in walk(b)) for lp in walk(fn))


def _augmented(m, ds) -> bool:
    """The dataset is built with random augmentation (``transform=Compose([RandomCrop(...),
    ...])``, directly or through a name): augmentation is for training data only."""
    e = ds
    if isinstance(ds, ast.Name):
        d = m.defs(ds)
        e = d[0] if d and len(d) == 1 else None
    if not isinstance(e, ast.Call):
        return False
    parts = list(e.args) + [k.value for k in e.keywords]
    for p in list(parts):
        if isinstance(p, ast.Name):
            d = m.defs(p)
            parts += [x for x in d or () if isinstance(x, ast.expr)]
    return any(isinstance(c, ast.Call) and (text(c.func) or "").rsplit(".", 1)[-1].startswith("Random")
               for p in parts for c in walk(p))


def _loader_factory(fn) -> bool:
    """A function whose name says it makes the training loader (Lightning's
    ``train_dataloader``, ``create_train_dataloader``, ``get_train_loader``)."""
    name = fn.name.lower() if fn is not None else ""
    return bool(_TRAIN.search(name)) and "loader" in name


def _generated(m, ds) -> bool:
    """The dataset makes up its samples (``RandomTokenDataset``, ``FakeData``): no order to shuffle."""
    e = ds
    if isinstance(ds, ast.Name):
        d = m.defs(ds)
        e = d[0] if d and len(d) == 1 else ds
    return bool(re.search(r"random|dummy|fake|synthetic|toy", _name(e).lower()))


def _bound_to(m, call) -> str:
    """The name a DataLoader call is assigned to (``train_loader = DataLoader(...)``), or ''."""
    got = m.memo.get("tlns.bound")
    if got is None:
        got = m.memo["tlns.bound"] = {id(n.value): text(n.targets[0]) for n in walk(m.tree)
                                      if isinstance(n, ast.Assign) and len(n.targets) == 1
                                      and isinstance(n.value, ast.Call)}
    return got.get(id(call), "")


def _name(e) -> str:
    if isinstance(e, ast.Call):
        return text(e.func)
    if isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Constant) and isinstance(e.slice.value, str):
        return f"{text(e.value)}[{e.slice.value!r}]"  # self.splits["train"]: the split's name is the key
    return text(e)


def _iterable(m, ds) -> bool:
    """The dataset is (or may be) an IterableDataset / a stream."""
    low = _name(ds).lower()
    if "iter" in low or "stream" in low:
        return True
    e = ds
    if isinstance(ds, ast.Name):
        d = m.defs(ds)
        e = d[0] if d and len(d) == 1 else None
    k = m.kind(e) if e is not None else None
    if isinstance(k, tuple) and k[0] == "local":
        return any("Iterable" in text(b) for c in m._mro(k[1]) for b in c.bases)
    if isinstance(k, tuple) and k[0] == "inst":
        return "Iterable" in k[1]
    return False


def _dist_sampler(e) -> bool:
    """``e`` is ``DistributedSampler(...)`` not built with ``shuffle=False``."""
    if not isinstance(e, ast.Call) or not (text(e.func) or "").endswith("DistributedSampler"):
        return False
    sh = keyword(e, "shuffle")
    return not (isinstance(sh, ast.Constant) and sh.value is False)


def _undistributed_path(m, call: ast.Call, fn, star: str | None = None) -> str | None:
    """Why ``call`` (a DataLoader) shuffles only under a DistributedSampler, or None. With
    ``**star`` passed, only when the distributed loader passes the same ``**star`` next to
    its sampler: DataLoader refuses a sampler with shuffle, so ``star`` carries no shuffle."""
    if keyword(call, "shuffle") is not None or keyword(call, "batch_sampler") is not None:
        return None
    sampler = keyword(call, "sampler")
    if isinstance(sampler, ast.Name):
        if star is not None:
            return None  # None when not distributed: then **star may carry shuffle
        d = m.defs(sampler)
        if d and len(d) == 1 and isinstance(d[0], ast.IfExp):
            e = d[0]
            arms = (e.body, e.orelse)
            if any(_dist_sampler(a) for a in arms) and any(isinstance(a, ast.Constant) and a.value is None
                                                             for a in arms):
                return f"`{sampler.id}` is None when not distributed"
        return None
    if sampler is not None or fn is None:
        return None
    ds = call.args[0] if call.args else keyword(call, "dataset")
    if ds is None or not text(ds):
        return None
    # the distributed loader sits in an `if dist:` branch that returns it, this one outside it
    # (two loaders side by side, one deliberately ordered for feature extraction, are not this)
    for br in walk(fn):
        if not isinstance(br, ast.If) or _inside(call, br):
            continue
        body = [x for b in br.body for x in walk(b)]
        if any(isinstance(x, ast.Return) for x in body) and any(
                _dist_sampler(x) and x.args and text(x.args[0]) == text(ds) for x in body) \
                and (star is None or any(_passes(x, star) for x in body)):
            return f"the `if` branch on line {br.lineno} gives `{text(ds)}` a DistributedSampler, this path nothing"
    return None


def _passes(x, star: str) -> bool:
    """``x`` is a DataLoader call with a sampler that passes ``**star`` too."""
    return isinstance(x, ast.Call) and (text(x.func) or "").endswith("DataLoader") \
        and keyword(x, "sampler") is not None and any(k.arg is None and text(k.value) == star for k in x.keywords)


def _inside(node, block) -> bool:
    return block.lineno <= node.lineno <= (block.end_lineno or block.lineno)
