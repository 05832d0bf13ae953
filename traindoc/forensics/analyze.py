"""The forensics of one bundle: the tests a replay runs and what they show.

``analyze(bundle)`` replays the step (:mod:`.replay`) through this plan:

1. the step's batch (each micro-batch in turn until one fails), instrumented: the first
   op that made a non-finite value, its module, inputs and rows;
2. group testing over that batch (about log2(B) + 2 forward/backward passes for one bad
   sample): a group "fails" when its loss or a gradient is non-finite, or, for a spike,
   when its loss (gradient norm) is above the band limit that fired the trigger; these
   passes run without the op instrumentation unless the script never calls backward on a
   failing batch (then only the op trace can tell);
3. each bad sample alone and, for contrast, up to three good ones: loss and gradient norm;
4. PaLM's triage: the same batch from the earlier snapshot (bad data fails from there
   too), and the previous step's batch from this state (a bad state fails on it too).

Then the profiles of the bad samples (:mod:`.samples`) and the findings
(:mod:`.findings`) go into ``forensics.json`` in the bundle.
"""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path
from typing import Any, Callable

from ..errors import UserError
from ..findings import jsonable
from .bisect import find_bad_samples
from .bundle import Bundle
from .locate import NonfiniteReport
from .plan import Result, Test
from .replay import run_plan
from .samples import profile

MAX_BAD = 8


def _judge(trigger: dict[str, Any]) -> Callable[[Result], bool]:
    kind = trigger.get("kind", "")
    limit = trigger.get("limit")
    if kind == "loss-spike" and isinstance(limit, (int, float)):
        return lambda r: r.fails or (bool(r.losses) and max(r.losses) > limit)
    if kind == "grad-spike" and isinstance(limit, (int, float)):
        return lambda r: r.fails or (r.grad_norm is not None and r.grad_norm > limit)
    return lambda r: r.fails


def _brief(t: Test, r: Result, fails: bool) -> dict[str, Any]:
    return {"what": t.what, "micro_batch": t.mb, "source": t.source, "state": t.state,
            "samples": None if t.positions is None else len(t.positions),
            "positions": t.positions if t.positions is not None and len(t.positions) <= 8 else None,
            "fails": fails, "loss": r.losses[0] if r.losses else None, "grad_norm": r.grad_norm}


def make_plan(b: Bundle) -> Callable:
    """The tests of the module docstring, as a plan for :func:`.replay.run_plan`."""
    judge = _judge(b.meta.get("trigger") or {})
    n_mb = len(b.groups())  # one test per backward's inputs (see Bundle.groups)

    def plan(ask: Callable[[Test], Result], out: dict[str, Any]) -> dict[str, Any]:
        tests = _Tests(ask, judge, out)
        first = tests.first_failing(n_mb)
        if first is None:
            out["reproduced"] = False
            return out
        mb, r, failed = first
        out["micro_batch"] = mb
        out["reproduced"] = failed
        out["location"] = NonfiniteReport.of(r.report).to_dict() if r.report is not None else None
        out["batch_size"] = r.batch_size
        if not failed or not r.batch_size:
            return out
        found = tests.group_test(mb, r)
        out["per_sample"] = per = tests.per_sample(mb, r.batch_size, found.bad)
        if any(p["fails"] for p in per if not p["bad"]):
            # a sample judged good fails on its own: the group tests did not measure what the
            # batch's rows do (batch statistics such as BatchNorm's, or values the replay
            # cannot slice with the rows, computed from the script's own indices): name none
            out["bisect"]["consistent"] = False
        out["triage"] = tests.triage(b, mb)
        return out

    return plan


class _Tests:
    """The plan's tests, each asked of the replay and logged in ``out["tests"]``."""

    def __init__(self, ask: Callable[[Test], Result], judge: Callable[[Result], bool], out: dict[str, Any]) -> None:
        self.ask, self.judge, self.out = ask, judge, out

    def run(self, t: Test) -> tuple[Result, bool]:
        r = self.ask(t)
        f = self.judge(r)
        self.out["tests"].append(_brief(t, r, f))
        return r, f

    def first_failing(self, n_mb: int) -> tuple[int, Result, bool] | None:
        """The first micro-batch that fails (else the first one), instrumented."""
        first = None
        for mb in range(n_mb):
            r, f = self.run(Test("batch", None, mb))
            if first is None or f:
                first = (mb, r, f)
            if f:
                break
        return first

    def group_test(self, mb: int, r: Result) -> Any:
        """The bad samples of micro-batch ``mb`` (``r``: its whole-batch test); fills ``out["bisect"]``."""
        cache = {tuple(range(r.batch_size)): True}
        watch_groups = not r.losses  # no backward seen: only the op trace can judge a group

        def fails(group: list[int]) -> bool:
            key = tuple(group)
            if key not in cache:
                cache[key] = self.run(Test("group", list(group), mb, watch=watch_groups))[1]
            return cache[key]

        t0, n0 = time.perf_counter(), len(self.out["tests"])
        found = find_bad_samples(fails, r.batch_size, max_bad=MAX_BAD)
        self.out["bisect"] = {**found.to_dict(), "passes": len(self.out["tests"]) - n0,
                              "seconds": time.perf_counter() - t0}
        return found

    def per_sample(self, mb: int, batch_size: int, bad: list[int]) -> list[dict[str, Any]]:
        """Up to three bad samples alone and, for contrast, up to three good ones."""
        per = []
        good = [i for i in range(batch_size) if i not in bad][:3]
        for pos in bad[:3] + good:
            rs, fs = self.run(Test("sample", [pos], mb))
            culprit = NonfiniteReport.of(rs.report).culprit if rs.report is not None else None
            per.append({"position": pos, "bad": pos in bad, "fails": fs,
                        "loss": rs.losses[0] if rs.losses else None, "grad_norm": rs.grad_norm,
                        "op": culprit.op if culprit else None})
        return per

    def triage(self, b: Bundle, mb: int) -> dict[str, Any]:
        """PaLM's triage: this batch from the earlier state, the previous batch from this one."""
        tri: dict[str, Any] = {}
        if b.meta.get("earlier_step") is not None:
            tri["earlier_step"] = b.meta["earlier_step"]
            tri["batch_fails_from_earlier_state"] = self.run(Test("earlier-state", None, mb, state="earlier"))[1]
        if b.meta.get("prev_batches"):
            tri["other_step"] = b.meta.get("prev_step")
            tri["other_batch_fails_from_this_state"] = self.run(Test("other-batch", None, 0, source="prev_batch"))[1]
        tri["verdict"] = _verdict(tri)
        return tri


def _verdict(t: dict[str, Any]) -> str:
    early = t.get("batch_fails_from_earlier_state")
    other = t.get("other_batch_fails_from_this_state")
    if other is True:
        return "bad-state"  # a normal batch fails too: the weights/optimizer state broke
    if early is True:
        return "bad-data"  # this batch fails from an older, healthy state as well
    if early is False and other is False:
        return "data-and-state"  # only this batch, only from this state
    if other is False:
        return "bad-data"  # other batches are fine from this state
    return "unknown"


def analyze(path: str | Path, write: bool = True, out_dir: Path | None = None) -> dict[str, Any]:
    """Replay the bundle at ``path`` in this process; returns the results and, with ``write``,
    writes ``forensics.json`` and ``replay.log`` into ``out_dir`` (default: the bundle).
    This runs the user's script here: callers go through :func:`.isolate.replay`, which
    runs it in a sandboxed child process."""
    from .findings import build_findings

    b = Bundle(path)
    if not b.meta.get("batches"):
        raise UserError(f"{path}: the step's batch was not recorded (it did not come from a "
                        f"DataLoader), so the step cannot be replayed")
    log = io.StringIO()
    t0 = time.perf_counter()
    res, drv, endings = run_plan(b, make_plan(b), log)
    res.update({"bundle": str(b.path), "step": b.step, "trigger": b.meta.get("trigger"),
                "script_runs": endings, "seconds": time.perf_counter() - t0})
    if drv.served == 0:
        want = (b.meta.get("loader") or {}).get("dataset")
        res["error"] = ((f"the script's model ({(b.meta.get('roots') or [{}])[0].get('class')}) never ran a training "
                         f"forward" if drv.forward_mode else
                         f"the script did not iterate a DataLoader over {want} with gradients on")
                        + f" (ended: {'; '.join(endings) or 'not run'})")
        if os.environ.get("TRAINDOC_SANDBOXED") == "landlock":
            res["error"] += ("; in the landlock sandbox the script cannot write files, so a script that "
                             "writes before its training loop stops there (where user namespaces are "
                             "allowed, the replay gives it a throwaway copy of the file system instead)")
    bad = (res.get("bisect") or {}).get("bad") or []
    if bad and (res.get("bisect") or {}).get("consistent", True):
        batch, indices = b.batches("batch")[b.groups()[res.get("micro_batch", 0)][0]]
        ds = getattr(drv.loader, "dataset", None)
        try:
            res["profiles"] = profile(batch, indices, bad, ds)
        except Exception as exc:  # noqa: BLE001 - a dataset that cannot be profiled
            res["profiles"] = {"error": f"{type(exc).__name__}: {exc}", "samples": []}
        if indices is not None:
            res["bad_indices"] = [indices[p] for p in bad]
        else:  # a batch built by hand (no DataLoader): its rows are what can be named
            res["bad_rows"] = list(bad)
    res["findings"] = [f.to_dict() for f in build_findings(res, b)]
    res["sandbox"] = os.environ.get("TRAINDOC_SANDBOXED", "off")
    res["batch_modified_in_place"] = any(e.get("modified_in_place") for e in b.meta.get("batches") or [])
    # no DataLoader and no torch loss function took a target: a hand-written loss reads y[idx]
    # of the loop's own step, which the rerun is not at (its first training forward is served)
    res["targets_unheld"] = bool(drv.forward_mode and (b.step or 0) > 0 and not any(
        isinstance(bt, dict) and bt.get("targets") for bt, _ in b.batches("batch")))
    if write:
        out = Path(out_dir) if out_dir is not None else b.path
        _write_json(out / "forensics.json", res)
        (out / "replay.log").write_text(log.getvalue())
    return res


def _write_json(path: Path, data: Any) -> None:
    from ..fileio import atomic_write

    atomic_write(path, json.dumps(jsonable(data), indent=1))
