"""Forensics results as taxonomy findings, and the loader ``traindoc diagnose`` calls.

``build_findings(result, bundle)``: ``unstable-op`` / ``fp16-overflow`` with module and op,
``data-nonfinite`` / ``data-outlier`` with ``location.samples`` (dataset indices), each with
evidence, a fix and a confirm command (the replay). ``load_findings(run_folder)`` reads them
back from every ``bundles/*/forensics.json`` of a run (plain JSON, nothing executed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..findings import ERROR, WARNING, Finding
from .bundle import groups_of
from .fp16_flush import flushed

_OP_FIX = {
    "exp": "subtract the row max before exp (x - x.amax(dim, keepdim=True)), or use torch.softmax / "
           "torch.log_softmax, which do",
    "log": "take logs of logits with torch.log_softmax / F.cross_entropy instead of log(softmax(x)); "
           "if a log of a probability is unavoidable, clamp it: torch.log(p.clamp_min(1e-12))",
    "_softmax": "mask fully padded rows safely: give rows without any valid key a zero weight "
                "(torch.where(row_has_key, softmax, 0)) or fill masked scores with "
                "torch.finfo(dtype).min instead of -inf",
    "div": "guard the denominator: x / d.clamp_min(eps); a softmax written by hand: use torch.softmax",
    "sqrt": "the gradient of sqrt at 0 is infinite (0/0 in the backward): add eps inside, "
            "torch.sqrt(x + eps), or use torch.linalg.vector_norm / F.normalize",
    "rsqrt": "add eps inside: torch.rsqrt(x + eps)",
    "pow": "clamp the base or the exponent to a safe range",
}
_OP_FIX["softmax"] = _OP_FIX["_log_softmax"] = _OP_FIX["_softmax"]


def _forward_op(node: str | None) -> str | None:
    """``SqrtBackward0`` -> ``sqrt``; None for a forward op or an unknown node."""
    if not node or "Backward" not in node:
        return None
    name = node.split("Backward")[0]
    return "".join("_" + ch.lower() if ch.isupper() and i else ch.lower() for i, ch in enumerate(name)).lstrip("_")


def _where(c: dict[str, Any]) -> str:
    if c.get("module") is None:
        return "outside any module"
    return c["module"] or f"<{c.get('module_type')} (top level)>"


def _where_t(c: dict[str, Any]) -> str:
    w, t = _where(c), c.get("module_type")
    return f"{w} ({t})" if t and c.get("module") and t != w else w


def _brief(s: dict[str, Any]) -> str:
    rng = "no finite values" if s.get("min") is None else f"in [{s['min']:.4g}, {s['max']:.4g}]"
    bad = [f"{s[k]} {w}" for k, w in (("nan", "nan"), ("posinf", "+inf"), ("neginf", "-inf")) if s.get(k)]
    return f"{s['shape']} {s['dtype']} {rng}" + (", " + ", ".join(bad) if bad else "")


def _samples(res: dict[str, Any], culprit: dict[str, Any] | None, b: Any) -> list[int]:
    if res.get("bad_indices"):
        return [i for i in res["bad_indices"] if i is not None]
    pos = (culprit or {}).get("samples") or []
    batches = b.meta.get("batches") or []
    idx = batches[groups_of(batches)[res.get("micro_batch", 0)][0]].get("indices") if batches else None
    return [idx[p] for p in pos if idx is not None and p < len(idx)]


def _step_stayed_finite(res: dict[str, Any]) -> bool:
    """The replay of the failing batch gave a finite loss and gradient norm."""
    import math

    first = next((t for t in res.get("tests") or [] if t.get("what") == "batch"), None)
    if first is None:
        return False
    vals = [first.get("loss"), first.get("grad_norm")]
    return all(isinstance(v, (int, float)) and math.isfinite(v) for v in vals)


_LINEAR_OPS = {"addmm", "mm", "bmm", "matmul", "linear", "baddbmm", "addmv", "mv", "convolution",
               "conv2d", "conv1d", "conv3d", "_convolution", "einsum"}


@dataclass
class _Context:
    """What every finding of one replay shares."""

    step: int | None
    confirm: str  # the command that re-runs the replay
    samples: list[int]  # dataset indices of the bad samples
    common: list[dict[str, Any]]  # evidence of the group testing and the triage
    profiles: list[dict[str, Any]]  # what is extreme about each bad sample (:mod:`.samples`)
    source: str | None = None  # the script's text when the culprit's line is in it (a guard's value)


def build_findings(res: dict[str, Any], b: Any) -> list[Finding]:
    """The findings of one replay: the op that went non-finite, then the data side."""
    loc = res.get("location") or {}
    c, kind = loc.get("culprit"), loc.get("kind")
    ctx = _Context(step=res.get("step"), confirm=f"traindoc replay {b.path}", samples=_samples(res, c, b),
                   common=_common_evidence(res), profiles=(res.get("profiles") or {}).get("samples") or [],
                   source=_script_source(b, c))
    kind = _data_behind_op(c, kind, ctx.profiles)
    scales = [s for s in (b.meta or {}).get("scaler_scales") or [] if isinstance(s, (int, float))]
    if c and kind == "fp16-overflow" and c.get("phase") == "backward" and scales and max(scales) > 1:
        # a float16 backward overflow under a live GradScaler is its search for a scale (skip, halve); one
        # collapsed to <= 1 no longer searches (many skipped steps are the run-level fp16-overflow rule's)
        c = None
    if c and kind in ("unstable-op", "fp16-overflow") and _step_stayed_finite(res):
        # replayed loss and gradients finite: an Inf made on the way was absorbed (a -inf mask in a softmax)
        c = None
    if c and kind in ("unstable-op", "fp16-overflow") and flushed(c, ctx.source):
        kind = "fp16-underflow"  # a value float16 flushed broke the op, not one past 65504
    out: list[Finding] = []
    if c and kind in ("unstable-op", "fp16-overflow", "fp16-underflow"):
        op = _op_finding(c, kind, ctx)
        init = _init_overflow(c, kind, ctx)
        if init and init.confidence > op.confidence - 0.1:
            # the op is where the starting scale shows, not its cause: a lead below the init (even with a lint line)
            op = Finding.from_confidence(op.name, min(op.confidence or 0.7, 0.7), op.message, location=op.location, evidence=op.evidence,
                                         fix=op.fix, confirm=op.confirm)
        out += [op] + ([init] if init else [])
    nonfin = [p for p in ctx.profiles if "nonfinite" in p["extreme"]]
    if (c and kind == "nonfinite-input") or nonfin:
        out.append(_nonfinite_data_finding(nonfin, c, kind == "nonfinite-input", ctx))
    outl = [p for p in ctx.profiles if {"length", "magnitude"} & set(p["extreme"])]
    if outl:
        out.append(_outlier_finding(outl, res, ctx))
    return out


def _script_source(b: Any, c: dict[str, Any] | None) -> str | None:
    """The recorded script's text when the culprit op's code line is in that file (``code``:
    "train.py:42 in forward: ..."); None otherwise or when it cannot be read."""
    cmd = (b.meta or {}).get("command") or {}
    script, code = cmd.get("script"), (c or {}).get("code") or ""
    if not script or not code or code.split(":", 1)[0] != Path(script).name:
        return None
    try:
        return (Path(cmd.get("cwd") or ".") / script).read_text(errors="replace")[:2_000_000]
    except OSError:
        return None


def _common_evidence(res: dict[str, Any]) -> list[dict[str, Any]]:
    bis = res.get("bisect") or {}
    tri = (res.get("triage") or {}).get("verdict")
    common = []
    if bis and not bis.get("consistent", True):
        common.append({"replay": f"group testing inconclusive in {bis.get('passes')} passes: rows judged good fail "
                                 "alone (batch statistics, or values not sliced with the batch); no sample named"})
    elif bis:
        common.append({"replay": f"group testing: {len(bis.get('bad', []))} bad sample(s) in "
                                 f"{bis.get('passes')} passes, verified alone: {bis.get('verified')}"})
    if tri and tri != "unknown":
        common.append({"triage": tri, **{k: v for k, v in (res.get("triage") or {}).items() if k != "verdict"}})
    return common


def _data_behind_op(c: dict[str, Any] | None, kind: str | None, profiles: list[dict[str, Any]]) -> str | None:
    """NaN from an input already holding the Inf the bad samples carry (Inf - Inf in a
    matmul): the op did what arithmetic says; the cause is the data. (A -inf the model
    puts there itself, a fully masked softmax row, stays an unstable op: its samples are finite.)"""
    if (c and kind == "unstable-op" and any((i.get("nonfinite") or 0) > 0 for i in c.get("inputs", []))
            and any("nonfinite" in p["extreme"] for p in profiles)):
        return "nonfinite-input"
    return kind


def _op_finding(c: dict[str, Any], kind: str, ctx: _Context) -> Finding:
    """``unstable-op`` / ``fp16-overflow``: the op, its module and inputs."""
    step, samples = ctx.step, ctx.samples
    ins = "; ".join(_brief(s) for s in c.get("inputs", [])[:3])
    ev = [{"op": c["op"], "phase": c["phase"], "module": _where(c), "inputs": ins,
           "outputs": "; ".join(_brief(s) for s in c.get("outputs", [])[:2]), "step": step}]
    if c.get("code"):
        ev.append({"code": c["code"]})
    ev += ctx.common
    msg, fix = (_fp16_message if kind == "fp16-overflow" else _unstable_message)(c, step)
    if kind == "fp16-underflow":
        why, fix = flushed(c, ctx.source)  # type: ignore[misc]
        msg = f"{c['op']} in {_where_t(c)} in the {c['phase']} pass went non-finite in float16 at step {step}: {why}"
    conf = 0.95
    big = max((i.get("absmax") or 0.0 for i in c.get("inputs", [])), default=0.0)
    if kind == "unstable-op" and big > 1e15 and (c["short"] in _LINEAR_OPS or big < 1e37):
        # a matmul or a square overflows float32 only on inputs of ~1e19: the values ran away upstream
        # (init, lr, a summed loss, exploding gradients), so the series' causes outrank the op (17
        # bench/real programs); not a sentinel near float32's max (finfo.min masks added twice)
        conf = 0.45
        msg += f" (its inputs had reached |x| {big:.3g}: the values ran away upstream of this op)"
    if samples:
        msg += f", on sample(s) {samples[:8]}"
    msg += f"; inputs {ins}"
    return Finding.from_confidence(kind, conf, msg,
                                   location={"step": step, "module": c.get("module"), "op": c["short"],
                                             "phase": c["phase"], "samples": samples,
                                             **({"node": c["node"]} if c.get("node") else {})},
                                   evidence=ev, fix=fix, confirm=ctx.confirm)


# An op whose float32 inputs reach this |x| in the first forward overflowed on values no
# O(1)-scaled model produces at init: exp overflows float32 past 88.7; a default-initialised
# layer's outputs are O(1) for standardised inputs.
INIT_OVERFLOW = 50.0


def _init_overflow(c: dict[str, Any], kind: str, ctx: _Context) -> Finding | None:
    """An op overflowed to Inf from large finite inputs in the forward of step 0, before any
    update: the values that overflow are the starting scale's work and the op is only where
    it shows. ``data-unnormalized`` when the batch's float inputs are in raw units (a Cox
    model on sample years), ``bad-init`` when they are not (an FFM drawing latent vectors
    from U(0, 1): logits of +-100 at init), a ``bad-init`` lead when the batch was not
    profiled; None when the op did not overflow at step 0."""
    ins, outs = c.get("inputs", []), c.get("outputs", [])
    big = max((i.get("absmax") or 0.0 for i in ins), default=0.0)
    if kind != "unstable-op" or ctx.step != 0 or c.get("phase") != "forward" or big < INIT_OVERFLOW \
            or any((i.get("nonfinite") or 0) > 0 for i in ins) \
            or not any(o.get("posinf") or o.get("neginf") for o in outs):
        return None
    raw = _raw_inputs(ctx.profiles)
    ev = {"op": c["op"], "phase": "forward", "step": 0, "inputs": "; ".join(_brief(s) for s in ins[:3])}
    if not any(p.get("fields") for p in ctx.profiles):
        # the batch was not profiled: its scale is unknown, so the starting weights are only
        # a lead beside the op (16-bit images scaled by 1/255 overflow a softplus the same way)
        return Finding.from_confidence(
            "bad-init", 0.6,
            f"{c['op']} in {_where_t(c)} overflowed in the first forward pass, before any update (inputs up to "
            f"|x| {big:.4g}): the starting weights' scale, or the inputs' (the batch was not profiled), made "
            f"those values",
            location={"step": 0, "module": c.get("module"), "op": c["short"]},
            evidence=[ev],
            fix="check the scale of the inputs (standardise them) and of the initial weights (fan-in scaled)",
            confirm="print the std of the model's inputs and outputs on one batch before training: both O(1)")
    if raw is not None:
        field, scale = raw
        return Finding.from_confidence(
            "data-unnormalized", 0.96,
            f"{c['op']} in {_where_t(c)} overflowed in the first forward pass, before any update: its inputs "
            f"reach |x| {big:.4g}, and the batch's float field {field} is itself at |x| ~{scale:.4g} per sample "
            f"(median of the samples' max): unstandardised inputs carry that scale through the layers; "
            f"{c['op']} is where it shows",
            location={"step": 0, "column": field, "op": c["short"]},
            evidence=[ev, {"field": field, "median_absmax": round(scale, 4)}],
            fix="standardise the float inputs with statistics of the training set ((x - mean) / std per feature; "
                "log-transform heavy-tailed ones), and apply the same transform at evaluation",
            confirm="print the mean and std of each input feature over the training set: standardised, they are "
                    "about 0 and 1")
    return Finding.from_confidence(
        "bad-init", 0.96,
        f"{c['op']} in {_where_t(c)} overflowed in the first forward pass, before any update: its inputs reach "
        f"|x| {big:.4g}, a scale no O(1)-initialised model produces at step 0. The starting weights (their "
        f"init, or the checkpoint loaded) or unstandardised inputs made those values; {c['op']} is where it shows",
        location={"step": 0, "module": c.get("module"), "op": c["short"]},
        evidence=[ev],
        fix="scale the initial weights to the fan-in (nn.init.xavier_uniform_ / kaiming_normal_, or the layers' "
            "defaults; a custom draw like torch.rand(...) needs a factor such as 1/sqrt(fan_in)), and standardise "
            "the inputs; then the stable form of the op as well",
        confirm="print the std of the model's output on one batch before training: with a sound init it is O(1)")


# Standardised features sit within a few units of 0; a float field whose samples reach this
# |x| (median over the batch of each sample's max) is in raw units (years, pixels 0-255,
# counts), and at step 0 its scale, not the init's, is what overflows.
RAW_INPUT = 20.0


def _raw_inputs(profiles: list[dict[str, Any]]) -> tuple[str, float] | None:
    """(field, scale) of the batch's float field with the largest per-sample |x| when that
    is above RAW_INPUT; integer fields (token ids, indices) are not a scale."""
    best = None
    for p in profiles:
        for f in p.get("fields", []):
            scale = f.get("run_p50_absmax")
            if f.get("float") and isinstance(scale, (int, float)) and scale > RAW_INPUT \
                    and (best is None or scale > best[1]):
                best = (f["field"], float(scale))
    return best


def _fp16_message(c: dict[str, Any], step: int | None) -> tuple[str, str]:
    msg = (f"{c['op']} in {_where_t(c)} in the {c['phase']} pass overflowed {c['inputs'][-1]['dtype'] if c.get('inputs') else 'float16'} "
           f"(|x| > 65504) at step {step}; the same op is finite in float32")
    fix = ("keep this op in float32 (torch.autocast(device_type, enabled=False) around it and .float() "
           "inputs), or train in bfloat16; with float16 keep a GradScaler; normalise the inputs that "
           "reach it")
    return msg, fix


def _unstable_message(c: dict[str, Any], step: int | None) -> tuple[str, str]:
    what = "NaN" if any(o.get("nan") for o in c.get("outputs", [])) else "Inf"
    src = ("from inputs already holding Inf (Inf/Inf, Inf - Inf, 0 * Inf)"
           if any((i.get("nonfinite") or 0) > 0 and not i.get("nan") for i in c.get("inputs", []))
           and what == "NaN" else "from finite inputs")
    msg = f"{c['op']} in {_where_t(c)} in the {c['phase']} pass made {what} {src} at step {step}"
    fwd = _forward_op(c.get("node"))  # backward: the forward op whose gradient failed
    if fwd:
        msg += f" (the gradient of {fwd}, {c['node']})"
    fix = _OP_FIX.get(fwd or c["short"], _OP_FIX.get(c["short"], "keep the op's inputs in its safe range (clamp, eps)"))
    if c["short"] in ("exp", "log", "div"):
        fix += "; clip gradients so one bad batch cannot wreck the weights"
    return msg, fix


def _nonfinite_data_finding(nonfin: list[dict[str, Any]], c: dict[str, Any] | None, read_first: bool,
                            ctx: _Context) -> Finding:
    """``data-nonfinite``: the samples holding NaN/Inf; ``read_first``: the op trace names the
    data as the cause, and ``c`` is the op that read them first."""
    step = ctx.step
    idx = [p["index"] for p in nonfin if p["index"] is not None] or ctx.samples
    rows = [p["position"] for p in nonfin if p["index"] is None]  # a batch built by hand
    fields = sorted({f["field"] for p in nonfin for f in p["fields"] if "nonfinite" in f["extreme"]})
    held = next((i for i in (c or {}).get("inputs") or () if (i.get("nonfinite") or 0) > 0), None)
    who = (f"sample(s) {idx[:8]}" if idx else
           f"row(s) {rows[:8]} of the step's batch (built by hand, so no dataset indices)" if rows else
           # no row named (every row fails alone): the tensor that holds them
           "the step's batch" + (f" ({_brief(held)})" if held else ""))
    msg = f"{who} hold{'s' if not idx and not rows else ''} NaN/Inf" + (f" in field(s) {fields}" if fields else "")
    if c and read_first:
        msg += f"; first read by {c['op']} in {_where_t(c)} at step {step}"
    return Finding("data-nonfinite", ERROR, msg,
                   location={"step": step, "samples": idx, **({"batch_rows": rows} if rows else {}),
                             "module": (c or {}).get("module"),
                             "op": (c or {}).get("short"), "column": fields[0] if fields else None},
                   evidence=[{"sample": p["index"] if p["index"] is not None else f"row {p['position']}", "fields": [{k: f[k] for k in ("field", "nonfinite", "length")}
                                                              for f in p["fields"] if f["nonfinite"]]}
                             for p in nonfin] + ctx.common,
                   fix="drop or repair those samples where the data is loaded (find them all with "
                       "`traindoc data check`), and make that check a pre-merge CI step",
                   confirm=ctx.confirm, confidence=0.95)


def _outlier_finding(outl: list[dict[str, Any]], res: dict[str, Any], ctx: _Context) -> Finding:
    """``data-outlier``: the failure follows samples far longer or larger than the run's P99.9."""
    parts, caps = [], []
    for p in outl:
        for f in p["fields"]:
            if "length" in f["extreme"]:
                parts.append(f"sample {p['index']} field {f['field']}: length {f['length']} where the median is "
                             f"{f['run_p50_length']:.0f} and P99.9 is {f['run_p999_length']:.0f}")
                caps.append(f"cap the length of field {f['field']} at the measured P99.9 "
                            f"({f['run_p999_length']:.0f}): truncate or drop longer samples")
            if "magnitude" in f["extreme"]:
                parts.append(f"sample {p['index']} field {f['field']}: |x| up to {f['absmax']:.4g} where the "
                             f"median is {f['run_p50_absmax']:.4g} and P99.9 is {f['run_p999_absmax']:.4g}")
                caps.append(f"normalise or clip field {f['field']} (P99.9 of |x| is {f['run_p999_absmax']:.4g})")
    reproduced = bool(res.get("reproduced")) and (res.get("bisect") or {}).get("verified") is not False
    return Finding("data-outlier", ERROR if reproduced else WARNING,
                   f"the step-{ctx.step} failure follows {len(outl)} outlier sample(s): " + "; ".join(parts[:4]),
                   location={"step": ctx.step, "samples": [p["index"] for p in outl],
                             "column": next((f["field"] for p in outl for f in p["fields"] if f["extreme"]), None)},
                   evidence=[_outlier_ev(p, f, (res.get("profiles") or {}).get("reference"))
                             for p in outl for f in p["fields"] if f["extreme"]] + ctx.common,
                   fix="; ".join(dict.fromkeys(caps)) + "; add `traindoc data check` as a pre-merge step so "
                       "the next outlier is caught before training",
                   confirm=ctx.confirm, confidence=0.9)


def _outlier_ev(p: dict[str, Any], f: dict[str, Any], ref: str | None) -> dict[str, Any]:
    r = lambda x: round(x, 4) if isinstance(x, float) else x  # noqa: E731
    ev = {"sample": p["index"], "field": f["field"], "extreme": ", ".join(f["extreme"])}
    if "length" in f["extreme"]:
        ev.update(length=f["length"], median_length=r(f["run_p50_length"]), p999_length=r(f["run_p999_length"]),
                  batch_median_length=r(f["batch_median_length"]))
    if "magnitude" in f["extreme"]:
        ev.update(absmax=r(f["absmax"]), median_absmax=r(f["run_p50_absmax"]), p999_absmax=r(f["run_p999_absmax"]))
    ev["reference"] = ref
    return ev


def load_findings(run_folder: str | Path) -> list[Finding]:
    """Findings stored by replays of a run's bundles (``traindoc diagnose`` calls this)."""
    out: list[Finding] = []
    base = Path(run_folder) / "bundles"
    if not base.is_dir():
        return out
    for p in sorted(base.glob("*/forensics.json")):
        try:
            data = json.loads(p.read_text())
            found = data.get("findings") if isinstance(data, dict) else None
            out.extend(Finding.from_dict(d) for d in found if isinstance(d, dict)) if isinstance(found, list) else None
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            continue  # a half-written or foreign file: the run's own rules still speak
    return out
