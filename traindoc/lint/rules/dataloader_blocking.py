"""TD509 dataloader-blocking: a DataLoader in a CUDA training script that does real per-item work
in the main process, or whose batches are copied with non_blocking=True from unpinned memory."""

from __future__ import annotations

import ast
import re

from .. import names as N
from ..registry import Hit, lint_rule
from ..source import keyword, text
from ..training import is_backward
from ..walk import walk

# torchvision dataset classes: every item is decoded (PIL) and run through the transforms
_TV_DATASETS = frozenset((
    "MNIST FashionMNIST KMNIST EMNIST QMNIST CIFAR10 CIFAR100 SVHN STL10 ImageFolder DatasetFolder ImageNet "
    "CelebA LSUN VOCSegmentation VOCDetection CocoDetection CocoCaptions Cityscapes Omniglot Places365 "
    "Flowers102 Food101 OxfordIIITPet StanfordCars Caltech101 Caltech256 SBDataset SBU Kinetics UCF101 HMDB51 "
    "USPS SEMEION PhotoTour FakeData CLEVRClassification Country211 DTD EuroSAT FGVCAircraft GTSRB "
    "INaturalist LFWPeople Kitti Imagenette"
).split())
# wrappers whose items are those of their first argument
_WRAPPERS = frozenset({"random_split", "Subset", "ConcatDataset", "ChainDataset"})
_HF_SAME = frozenset({"select", "shuffle", "filter", "train_test_split", "with_format", "remove_columns",
                      "rename_column", "cast_column", "sort", "take", "skip"})
# modules whose calls in __getitem__ are real work (decoding, file I/O, signal processing, augmentation)
_HEAVY_ROOTS = frozenset({"Image", "PIL", "cv2", "imageio", "iio", "skimage", "librosa", "torchaudio", "sf",
                          "soundfile", "h5py", "tifffile", "nib", "nibabel", "pydicom", "transforms", "T", "TF",
                          "A", "albumentations", "decord", "av", "scipy", "wavfile", "io"})
_HEAVY_CALLS = frozenset({
    "open", "imread", "imdecode", "read_image", "decode_image", "decode_jpeg", "decode_png", "read_file",
    "loadmat", "load", "read", "readlines", "urlopen", "fft", "rfft", "fft2", "rfft2", "fftn", "stft", "istft",
    "spectrogram", "melspectrogram", "mfcc", "resize", "crop", "rotate", "warpAffine", "warpPerspective",
    "convert", "ToTensor", "Compose", "to_tensor", "pil_to_tensor", "interpolate",
})
_HEAVY_WORDS = re.compile(r"transform|augment|process|feature_extractor|(^|_)aug(_|$)|load_image|decode")
_COMPS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_ITER_WRAPPERS = frozenset({"enumerate", "tqdm", "zip", "iter", "progress_bar", "track", "cycle"})


@lint_rule(
    "dataloader-blocking", "TD509", "info",
    "a DataLoader in a CUDA training script whose dataset does real per-item work (decoding, transforms, "
    "file I/O) with num_workers=0, or whose batches are copied with non_blocking=True without pin_memory=True",
    needles=[("DataLoader",), ("cuda",), ("backward",)],
    fix="DataLoader(..., num_workers=min(8, os.cpu_count()), pin_memory=True, persistent_workers=True) "
        "and .to(device, non_blocking=True)",
    confirm="time the wait for the next batch (traindoc run records it): a large share of the step means "
            "`dataloader-bottleneck`",
)
def check(m):
    """What it detects: a `torch.utils.data.DataLoader(...)` in a script that trains
    (calls `backward()`) and uses CUDA, when

    - it loads in the main process (`num_workers=0`, or no `num_workers`, whose default
      is 0) over a dataset that does real work per item: a torchvision dataset (MNIST,
      CIFAR, ImageFolder, ...: every item is a PIL image run through the transforms), a
      dataset built with a `transform=`, or a dataset class of the file whose
      `__getitem__` decodes, reads files, opens images (PIL, cv2), applies transforms or
      augmentation, runs a processor or an FFT; a loader read only once
      (`next(iter(loader))`) is not flagged; or
    - its batches are copied to the GPU with `non_blocking=True` (in the loop over that
      loader, or anywhere in the file when the loop is not visible) and it has no
      `pin_memory=True`.

    Not flagged: in-memory datasets (`TensorDataset`, tensors or pre-tokenized rows held
    by the dataset, lists of prompt strings), datasets the rule cannot see (built in
    another module, passed in as a parameter), `pin_memory` alone when no copy is
    `non_blocking` (pinning then saves little), and a loader built from `**kwargs`.
    Severity info: it costs time, not correctness.

    Why it happens: with `num_workers=0` the GPU waits while the main process
    reads, decodes, augments and collates every batch; with workers the next batches are
    prepared while the GPU computes. A `non_blocking=True` copy is asynchronous only from
    pinned (page-locked) memory: from a pageable tensor it is staged and synchronous, so
    the overlap the code asks for never happens (cause `dataloader-bottleneck`).

    Example:
        train_set = datasets.ImageFolder("train/", transform=augment)
        loader = DataLoader(train_set, batch_size=256, shuffle=True)      # decoding in the main process
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)  # and synchronous: not pinned

    How to fix:
        loader = DataLoader(train_set, batch_size=256, shuffle=True, num_workers=8,
                            pin_memory=True, persistent_workers=True)
        # keep pin_memory off if the dataset already yields CUDA tensors
    """
    if not any(is_backward(m, s.node) for s in m.w.calls):
        return
    if not _uses_cuda(m):
        return
    info = None
    for site in m.w.calls:
        call = site.node
        c = m.callee(call)
        if c[0] != "fn" or c[1] not in N.DATALOADER or any(k.arg is None for k in call.keywords):
            continue
        if info is None:
            info = _file_info(m)
        key = info[0].get(id(call))
        if key is not None and key in info[1]:
            continue  # read once (next(iter(loader))): a batch to plot or inspect
        issues = _issues(m, call, key, info)
        if issues:
            yield Hit(call, "DataLoader in a CUDA training script: " + "; and ".join(issues))


def _issues(m, call: ast.Call, key: str | None, info: tuple) -> list[str]:
    """What this DataLoader call does wrong: loads heavy items in the main process, or is
    copied with non_blocking=True without pinned memory (``info``: :func:`_file_info`)."""
    _, _, nb_keys, iterated, nb_any = info
    kw = {k.arg: k.value for k in call.keywords}
    issues = []
    nw = kw.get("num_workers", ast.Constant(0) if len(call.args) < 8 else None)
    if isinstance(nw, ast.Constant) and nw.value == 0:
        ds = call.args[0] if call.args else kw.get("dataset")
        why = _heavy(m, ds, 4) if ds is not None else None
        if why:
            issues.append(f"num_workers=0 over a dataset that {why}: batches are prepared in the main process "
                          "while the GPU waits")
    pm = kw.get("pin_memory", ast.Constant(False) if len(call.args) < 9 else None)
    if isinstance(pm, ast.Constant) and pm.value is False:
        nb = (key in nb_keys) if key is not None and key in iterated else nb_any
        if nb:
            issues.append("no pin_memory=True, yet its batches are copied with non_blocking=True (from pageable "
                          "memory the copy is synchronous: nothing overlaps)")
    return issues


def _uses_cuda(m) -> bool:
    """`.cuda()`, `device="cuda"`, `torch.device("cuda:0")`, `torch.cuda.*` in the file."""
    src = m.source
    return b".cuda(" in src or b'"cuda' in src or b"'cuda" in src or b"torch.cuda." in src


def _key(e) -> str | None:
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        return "." + e.attr
    return None


def _nb_true(call: ast.Call) -> bool:
    v = keyword(call, "non_blocking")
    return v is not None and not (isinstance(v, ast.Constant) and not v.value)


def _file_info(m):
    """Per file: loader names, names read once (``next(iter(x))``), names whose loop copies
    with non_blocking, names iterated by a for loop, and whether any copy is non_blocking."""
    got = m.memo.get("dataloader_blocking.info")
    if got is not None:
        return got
    names: dict[int, str] = {}
    loads: dict[str, int] = {}
    once: dict[str, int] = {}
    nb_any = False
    comps: list = []
    for n in walk(m.tree):
        t = type(n)
        if t is ast.Assign and len(n.targets) == 1 and isinstance(n.value, ast.Call):
            k = _key(n.targets[0])
            if k is not None:
                names[id(n.value)] = k
        elif t is ast.Name and type(n.ctx) is ast.Load:
            loads[n.id] = loads.get(n.id, 0) + 1
        elif t is ast.Attribute and type(n.ctx) is ast.Load:
            loads["." + n.attr] = loads.get("." + n.attr, 0) + 1
        elif t in _COMPS:
            comps.append(n)
        elif t is ast.Call:
            f = n.func
            if (isinstance(f, ast.Name) and f.id == "next" and len(n.args) == 1 and isinstance(n.args[0], ast.Call)
                    and isinstance(n.args[0].func, ast.Name) and n.args[0].func.id == "iter" and n.args[0].args):
                k = _key(n.args[0].args[0])
                if k is not None:
                    once[k] = once.get(k, 0) + 1
            elif not nb_any and n.keywords and _nb_true(n):
                nb_any = True
    one_shot = {k for k, c in once.items() if loads.get(k, 0) == c}
    nb_keys: set[str] = set()
    iterated: set[str] = set()
    for site in m.w.loops:
        s = site.node
        if not isinstance(s, (ast.For, ast.AsyncFor)):
            continue
        keys = _iter_keys(s.iter)
        if not keys:
            continue
        iterated.update(keys)
        if nb_any and any(isinstance(x, ast.Call) and x.keywords and _nb_true(x)
                          for b in s.body for x in walk(b)):
            nb_keys.update(keys)
    for comp in comps:  # [f(x.to(dev, non_blocking=True)) for x in loader]
        for g in comp.generators:
            keys = _iter_keys(g.iter)
            iterated.update(keys)
            if keys and nb_any and any(isinstance(x, ast.Call) and x.keywords and _nb_true(x) for x in walk(comp)):
                nb_keys.update(keys)
    got = m.memo["dataloader_blocking.info"] = (names, one_shot, nb_keys, iterated, nb_any)
    return got


def _iter_keys(e, depth: int = 3) -> list[str]:
    k = _key(e)
    if k is not None:
        return [k]
    if isinstance(e, (ast.Tuple, ast.List)) and depth:  # for loader in (train_loader, val_loader):
        return [x for a in e.elts for x in _iter_keys(a, depth - 1)]
    if isinstance(e, ast.Call) and depth:
        f = e.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if name in _ITER_WRAPPERS:
            return [x for a in e.args for x in _iter_keys(a, depth - 1)]
    return []


def _last(e) -> str:
    return text(e).rsplit(".", 1)[-1]


def _heavy(m, e, depth: int) -> str | None:
    """Why the dataset ``e`` does real work per item, or None (in memory, or not visible)."""
    if depth <= 0 or e is None:
        return None
    if isinstance(e, ast.Name):
        d = m.defs(e)
        vals = [x for x in d if isinstance(x, ast.expr)] if d else []
        if not vals:
            vals = _assigned(m).get(e.id, [])
        for v in vals[:6]:
            why = _heavy(m, v, depth - 1)
            if why:
                return why
        return None
    if isinstance(e, ast.Attribute):
        if isinstance(e.value, ast.Name) and e.value.id == "self":
            for (_, attr), vals in m.w.self_attrs.items():
                if attr == e.attr:
                    for v in vals[:6]:
                        why = _heavy(m, v, depth - 1) if isinstance(v, ast.expr) else None
                        if why:
                            return why
        return None
    if isinstance(e, ast.Subscript):
        return _heavy(m, e.value, depth - 1)
    if not isinstance(e, ast.Call):
        return None
    f = e.func
    last = _last(f)
    if last in _TV_DATASETS:
        return f"decodes and transforms every item (torchvision `{last}`)"
    if last == "TensorDataset":
        return None
    if last in _WRAPPERS:
        for a in e.args[:1] if last != "ConcatDataset" else (e.args[0].elts if e.args and isinstance(
                e.args[0], (ast.List, ast.Tuple)) else e.args[:1]):
            why = _heavy(m, a, depth - 1)
            if why:
                return why
        return None
    if isinstance(f, ast.Attribute) and f.attr in ("with_transform", "set_transform"):
        return f"transforms every item (`.{f.attr}`)"
    for k in e.keywords:
        if k.arg in ("transform", "transforms", "image_transforms") and not (
                isinstance(k.value, ast.Constant) and k.value.value is None):
            return f"transforms every item (`{last}(..., {k.arg}=...)`)"
    if isinstance(f, ast.Attribute) and f.attr in _HF_SAME:
        return _heavy(m, f.value, depth - 1)
    c = m.callee(e)
    cls = None
    if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "class":
        cls = c[1][1]
    elif isinstance(f, ast.Name):
        cls = m.w.classes.get(f.id)
    if cls is not None:
        return _class_heavy(m, cls)
    return None


def _assigned(m) -> dict[str, list]:
    """Every value assigned to a plain name anywhere in the file (``a, b = random_split(ds)``
    gives ``a`` and ``b`` the call), for names the scope walker cannot follow."""
    got = m.memo.get("dataloader_blocking.assigned")
    if got is None:
        got = {}
        for n in walk(m.tree):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        got.setdefault(t.id, []).append(n.value)
                    elif isinstance(t, (ast.Tuple, ast.List)) and isinstance(n.value, ast.Call):
                        for x in t.elts:
                            if isinstance(x, ast.Name):
                                got.setdefault(x.id, []).append(n.value)
        m.memo["dataloader_blocking.assigned"] = got
    return got


def _class_heavy(m, cls: ast.ClassDef) -> str | None:
    get = m.method(cls, "__getitem__") or m.method(cls, "__iter__")
    if get is None:
        for c in m._mro(cls):
            for b in c.bases:
                if _last(b) in _TV_DATASETS:
                    return f"decodes and transforms every item (a torchvision `{_last(b)}`)"
        return None
    why = _body_heavy(m, cls, get, 2, set())
    return f"{why} in `{cls.name}.{get.name}`" if why else None


def _body_heavy(m, cls, fn, depth: int, seen: set) -> str | None:
    if id(fn) in seen:
        return None
    seen.add(id(fn))
    for n in walk(fn):
        if not isinstance(n, ast.Call):
            continue
        f = n.func
        dotted = text(f)
        if not dotted:
            continue
        parts = dotted.split(".")
        root, last = parts[0], parts[-1]
        if len(parts) > 1 and root in _HEAVY_ROOTS or last in _HEAVY_CALLS or _HEAVY_WORDS.search(last.lower()):
            return f"calls `{dotted}(...)`"
        if depth > 1:
            sub = None
            if root == "self" and len(parts) == 2:
                sub = m.method(cls, last)
            elif len(parts) == 1:
                fs = m.w.functions.get(last)
                sub = fs[0] if fs and len(fs) == 1 else None
            if sub is not None:
                why = _body_heavy(m, cls, sub, depth - 1, seen)
                if why:
                    return why
    return None
