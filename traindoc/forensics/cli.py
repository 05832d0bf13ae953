"""``traindoc replay BUNDLE|RUN [--json]``: re-execute a bad step and say where it broke.

Exit code: 0 when the replay ran and found no cause of severity error, 1 when it found
one, 2 for bad input (not a bundle, the script is gone).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..findings import jsonable


def _pick(path: str) -> Path:
    p = Path(path)
    if (p / "meta.json").is_file():
        return p
    from .bundle import find_bundles, worth_replaying

    found = find_bundles(p)
    if found:  # the one `traindoc run` replays (a non-finite step before an earlier spike)
        return worth_replaying(found) or found[0]
    if not p.exists():
        raise UserError(f"{path}: no such bundle or run folder")
    raise UserError(f"{path}: neither a bundle nor a run folder with bundles/")


def _g(x: Any) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def why_not_reproduced(res: dict[str, Any]) -> list[str]:
    """Why a replay of the bundled batch from the bundled state can come out finite."""
    runs = res.get("script_runs") or []
    ended = "; ".join(dict.fromkeys(runs)) or "not run"
    if res.get("batch_modified_in_place"):
        return [f"the script ran {len(runs)} time(s) in replay mode (ended: {ended}); the step came out "
                f"finite because the loop changed the batch in place after the DataLoader gave it (its "
                f"tensors' version counters moved before the step ended), so the bundle holds the changed "
                f"batch, which the replay changes again. Make the change out of place (x = x - mean) or in "
                f"the Dataset/collate_fn, then re-run to capture the step"]
    unheld = ["- the loss's targets are not in the bundle: the model's inputs were served, but no torch loss "
              "function received a target (a hand-written loss on y[idx], indexed in the loop), so the replay "
              "paired them with the targets of the rerun's first batch, not this step's. A torch loss function "
              "(F.binary_cross_entropy_with_logits, F.cross_entropy, ...) given the targets makes the step "
              "replayable"] if res.get("targets_unheld") else []
    return [
        f"the script ran {len(runs)} time(s) in replay mode (ended: {ended}); the step came out "
        f"finite from the bundled batch and state. Likely causes:", *unheld,
        "- the batch was changed in place after the DataLoader gave it (the bundle holds it as served)",
        "- a prefetching loader (or a loop that draws one batch ahead) drew this batch one step early, "
        "so the bundle paired the wrong batch with the step",
        "- nondeterminism (non-deterministic kernels, dropout or RNG consumed outside the bundled "
        "generators, other threads)",
        "- script state the bundle does not hold (optimizer moments, a counter, a schedule, an EMA, "
        "values computed from earlier steps)",
    ]


def render(res: dict[str, Any], out: Any = None) -> None:
    """The replay in a few lines (plain text: it also goes into ``traindoc run``'s stderr)."""
    from ..report.terminal import printable

    raw = (out or sys.stdout).write

    def w(text: str) -> None:  # code lines and names come from the user's files: no raw ESC
        raw(printable(text))
    trig = res.get("trigger") or {}
    w(f"traindoc replay: step {res.get('step')} ({trig.get('kind')}), bundle {res.get('bundle')}\n")
    if res.get("error"):
        w(f"  could not replay: {res['error']}\n")
        return
    w(f"  reproduced: {'yes' if res.get('reproduced') else 'no'} "
      f"({len(res.get('tests', []))} replays of the step, {res.get('seconds', 0):.1f} s)\n")
    if not res.get("reproduced"):
        for line in why_not_reproduced(res):
            w(f"    {line}\n")
    c = (res.get("location") or {}).get("culprit")
    if c:
        from .findings import _brief, _where

        w(f"  first non-finite: {c['op']} in {_where(c)} [{c.get('module_type')}] ({c['phase']} pass)\n")
        for s in c.get("inputs", [])[:3]:
            w(f"    input  {_brief(s)}\n")
        for s in c.get("outputs", [])[:1]:
            w(f"    output {_brief(s)}\n")
        if c.get("code"):
            w(f"    code   {c['code']}\n")
    b = res.get("bisect")
    if b and not b.get("consistent", True):
        w(f"  offending samples: inconclusive (group testing, {b['passes']} passes): rows it judged good fail on "
          "their own, so the step's result depends on more than each row (batch statistics such as BatchNorm's, "
          "or values the script computes from its own indices); no sample is named\n")
    elif b:
        who = (f"dataset indices {res.get('bad_indices')}" if res.get("bad_indices") is not None else
               f"rows {res.get('bad_rows')} of the step's batch (built by hand: no dataset indices)")
        w(f"  offending samples (group testing, {b['passes']} passes): {who}, fail alone: {b.get('verified')}\n")
    for p in res.get("per_sample", []):
        tag = "bad " if p["bad"] else "good"
        w(f"    {tag} position {p['position']:>4}: loss {_g(p['loss'])}, grad norm {_g(p['grad_norm'])}\n")
    for p in (res.get("profiles") or {}).get("samples", []):
        for f in p["fields"]:
            if f["extreme"]:
                w(f"    {'sample ' + str(p['index']) if p['index'] is not None else 'row ' + str(p['position'])} "
                  f"field {f['field']}: {', '.join(f['extreme'])} (length {f['length']}, "
                  f"run median {_g(f['run_p50_length'])}, P99.9 {_g(f['run_p999_length'])}; |x| max "
                  f"{_g(f['absmax'])}, run median {_g(f['run_p50_absmax'])}, P99.9 {_g(f['run_p999_absmax'])})\n")
    t = res.get("triage")
    if t and t.get("verdict") != "unknown":
        w(f"  triage: {t.get('verdict')} (same batch from step {t.get('earlier_step')}: "
          f"{'fails' if t.get('batch_fails_from_earlier_state') else 'passes' if 'batch_fails_from_earlier_state' in t else 'n/a'}; "
          f"step {t.get('other_step')}'s batch from this state: "
          f"{'fails' if t.get('other_batch_fails_from_this_state') else 'passes' if 'other_batch_fails_from_this_state' in t else 'n/a'})\n")
    for f in res.get("findings", []):
        w(f"  {f['severity'].upper()} {f['name']} ({f['code']}): {f['message']}\n")
        if f.get("fix"):
            w(f"    fix: {f['fix']}\n")
    w(f"  details: {Path(res.get('bundle', '')) / 'forensics.json'}\n")


def _cmd_replay(a: argparse.Namespace) -> int:
    if a.inside:  # the sandboxed child of the command below: replay in this process
        from .analyze import analyze

        res = analyze(a.bundle, out_dir=Path(a.inside))
        if a.json:
            print(json.dumps(jsonable(res)))
        else:
            render(res)
        return 1 if any(f["severity"] == "error" for f in res.get("findings", [])) else 0
    from .isolate import replay

    rc, _res = replay(_pick(a.bundle), json_out=a.json, no_sandbox=a.no_sandbox, yes=a.yes,
                      allow_changed=a.allow_changed)
    return rc


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="re-execute a bad step from its bundle, in a sandbox: first non-finite op, samples, triage")
    p.add_argument("bundle", help="a bundle folder (RUN/bundles/step-...) or a run folder (the bundle `traindoc run` replays: the first non-finite step, else the first spike)")
    p.add_argument("--json", action="store_true", help="print the forensics document (also in forensics.json)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="replay even where no operating-system sandbox is available (the script's writes then reach your files)")
    p.add_argument("--yes", action="store_true", help="replay a bundle written on another machine or at another path without asking")
    p.add_argument("--allow-changed", action="store_true", help="replay although the script changed since the run")
    p.add_argument("--inside", help=argparse.SUPPRESS)  # internal: the sandboxed child's output folder
    p.set_defaults(func=_cmd_replay)
