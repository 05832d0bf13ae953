"""The HTML report: one self-contained file (plotly.js inline, no network) with the run's
header, the ranked causes with their evidence, fix, confirmation and rule doc, the
symptoms, what could not be told, and the plots.

Safety: every string that came from the user's code or data (folder, command, module
and parameter names, messages, tracebacks) is escaped with :func:`html.escape` here or
in :mod:`.plotkit` for plot labels. The report draws only: the diagnosis is
``traindoc.diagnose``'s.
"""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path
from typing import Any, Callable

from ..diagnose import Diagnosis
from ..findings import Finding, worst_severity
from . import figures, layers
from .page import CSS, doc_html, inline
from .plotkit import Plot, esc, to_div

PLOTS: list[Callable[[Any, Diagnosis, int], Plot]] = [
    figures.loss_plot, figures.lr_plot, figures.grad_norm_plot, layers.grad_heatmap,
    layers.update_ratio_plot, layers.activation_plot, figures.time_plot, figures.scaler_plot,
]
SYMPTOMS_SHOWN = 200   # symptom rows in the table; the rest are counted


def _when(ts: Any) -> str:
    try:
        return _dt.datetime.fromtimestamp(float(ts), _dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (TypeError, ValueError, OverflowError, OSError):
        return ""


def _kv(rows: list[tuple[str, str]]) -> str:
    """Rows of (label, already-escaped HTML)."""
    return '<table class="kv">' + "".join(f"<tr><th>{esc(k)}</th><td>{v}</td></tr>" for k, v in rows if v) + "</table>"


def _device(env: dict[str, Any]) -> str:
    if "device" not in env:
        return ""   # an imported log: the device is unknown
    dev = env.get("device") or {}
    if not isinstance(dev, dict):
        return esc(dev)
    if not dev.get("cuda"):
        return "CPU" + (f", {esc(env['threads'])} threads" if env.get("threads") else "")
    rest = ", ".join(f"{esc(k)} {esc(v)}" for k, v in dev.items() if k != "cuda")
    return "CUDA" + (f" ({rest})" if rest else "")


def header(d: Diagnosis, rank: int) -> str:
    run, m = d.run, d.run.meta_for(rank)
    env = m.get("environment") or {}
    status = esc(m.get("status", "unknown"))
    if m.get("exit_code") is not None:
        status += f" (exit code {esc(m['exit_code'])})"
    cmd = m.get("command") or env.get("argv")
    if isinstance(cmd, list):
        import shlex

        cmd = shlex.join(str(c) for c in cmd)
    started, ended = env.get("started"), m.get("ended")
    times = _when(started) + (f" → {_when(ended)}" if _when(ended) else "")
    if started and ended:
        try:
            times += f" ({float(ended) - float(started):.1f} s)"
        except (TypeError, ValueError):
            pass
    versions = ", ".join(f"{k} {esc(env[k])}" for k in ("traindoc", "torch", "python", "numpy") if env.get(k))
    models = []
    for k in sorted(x for x in m if x.startswith("model/")):
        info = m[k] or {}
        models.append(f"<span class=mono>{esc(info.get('name', k[6:]))}</span>: {esc(info.get('class', '?'))}, "
                      f"{int(info.get('parameters') or 0):,} parameters, {esc(', '.join(map(str, info.get('dtypes') or [])))}"
                      f" on {esc(', '.join(map(str, info.get('devices') or [])))}")
    opts = []
    for k in sorted(x for x in m if x.startswith("optimizer/")):
        info = m[k] or {}
        groups = info.get("groups") or []
        lrs = sorted({g.get("lr") for g in groups if isinstance(g, dict) and g.get("lr") is not None}, key=str)
        opts.append(f"{esc(info.get('class', '?'))}, {len(groups)} group(s)" + (f", lr {esc(', '.join(map(str, lrs)))}" if lrs else ""))
    loaders = []
    for k in sorted(x for x in m if x.startswith("loader/")):
        info = m[k] or {}
        loaders.append(f"{esc(info.get('dataset', '?'))}, {esc(info.get('length', '?'))} samples, "
                       f"{esc(info.get('num_workers', '?'))} workers")
    ranks = run.ranks
    imp = m.get("import") if isinstance(m.get("import"), dict) else None
    rows = [
        ("imported from" if imp else "run folder", f"<span class=mono>{esc(run.folder)}</span>"),
        ("log format", _imported(imp) if imp else ""),
        ("status", status),
        ("steps", esc(m.get("steps", len(run.series("loss", rank))))),
        ("ranks", esc(", ".join(map(str, ranks))) + (f" (plots show rank {rank})" if len(ranks) > 1 else "")),
        ("command", f"<code>{esc(cmd)}</code>" if cmd else ""),
        ("when", esc(times)),
        ("versions", versions),
        ("device", _device(env)),
        ("host", esc(" · ".join(str(env[k]) for k in ("host", "platform") if env.get(k)))),
        ("model", "<br>".join(models)),
        ("optimizer", "<br>".join(opts)),
        ("data", "<br>".join(loaders)),
        ("compiled", "yes (torch.compile: no activation statistics)" if m.get("compiled") else ""),
        ("sampling", esc(layers.sampling_summary(run, rank))),
    ]
    return _kv(rows)


def _imported(imp: dict[str, Any]) -> str:
    """What an importer read: the format, which of the tool's names became which series."""
    names = {"tensorboard": "TensorBoard event files", "huggingface": "Hugging Face trainer_state.json",
             "lightning": "Lightning CSVLogger metrics.csv", "csv": "CSV table", "jsonl": "JSONL table"}
    out = esc(names.get(str(imp.get("format")), imp.get("format")))
    mapping = imp.get("mapping") or {}
    if mapping:
        out += "; read as " + ", ".join(f"<span class=mono>{esc(dst)}</span> ← <span class=mono>{esc(src)}</span>"
                                        for src, dst in sorted(mapping.items(), key=lambda kv: kv[1]))
    if imp.get("ignored"):
        out += "; not numeric, left out: " + esc(", ".join(map(str, imp["ignored"])))
    return out


def _where(f: Finding, skip: tuple[str, ...] = ()) -> str:
    loc = f.location
    parts = []
    for k, v in loc.items():
        if v is None or v == [] or v == "" or k in skip:
            continue
        if isinstance(v, (list, tuple)):
            v = ", ".join(map(str, v[:20])) + (f" … ({len(v)} in all)" if len(v) > 20 else "")
        parts.append(f"{esc(k)} <span class=mono>{esc(v)}</span>")
    return " · ".join(parts)


def _evidence(f: Finding) -> str:
    if not f.evidence:
        return ""
    rows = []
    for e in f.evidence[:30]:
        cells = []
        for k, v in (e.items() if isinstance(e, dict) else [("", e)]):
            if isinstance(v, (list, tuple)):
                v = ", ".join(map(str, v[:20])) + (" …" if len(v) > 20 else "")
            cells.append(f"{esc(k)}=<span class=mono>{esc(v)}</span>" if k else esc(v))
        rows.append("<li>" + ", ".join(cells) + "</li>")
    more = f"<li class=muted>… {len(f.evidence) - 30} more</li>" if len(f.evidence) > 30 else ""
    return "<ul style='margin:0;padding-left:18px'>" + "".join(rows) + more + "</ul>"


def _doc(name: str, docs: dict[str, list[tuple[str, str]]]) -> str:
    found = docs.get(name) or []
    if not found:
        return ""
    body = "".join(f"<div class=doc>{doc_html(doc)}<p class=muted>source: {esc(src)} (<code>traindoc explain {esc(name)}</code>)</p></div>"
                   for src, doc in found)
    return f"<details><summary>About {esc(name)}: what it detects, why, how to confirm and fix</summary>{body}</details>"


def cause_card(i: int, f: Finding, docs: dict[str, list[tuple[str, str]]]) -> str:
    conf = ""
    if f.confidence is not None:
        c = max(0.0, min(1.0, float(f.confidence)))
        conf = f"<span class=conf>confidence {c:.0%}<span class=bar><i style='width:{100 * c:.0f}%'></i></span></span>"
    rows = [("where", _where(f)), ("evidence", _evidence(f)), ("fix", inline(f.fix)), ("confirm", inline(f.confirm))]
    return (f"<div class='card {esc(f.severity)}'>{conf}<h3>{i}. {esc(f.name)}<span class=code>{esc(f.code)}</span> "
            f"<span class='sev {esc(f.severity)}'>{esc(f.severity)}</span></h3>"
            f"<div class=msg>{esc(f.message)}</div>{_kv(rows)}{_doc(f.name, docs)}</div>")


def _findings_table(items: list[Finding], limit: int) -> str:
    rows = "".join(
        f"<tr><td>{esc(f.location.get('step', ''))}</td><td>{esc(f.name)} <span class=muted>{esc(f.code)}</span></td>"
        f"<td><span class='sev {esc(f.severity)}'>{esc(f.severity)}</span></td><td>{esc(f.message)}"
        + (f"<br><span class=muted>{where}</span>" if (where := _where(f, skip=("step", "rank"))) else "")
        + "</td></tr>"
        for f in items[:limit])
    more = f"<p class=muted>… and {len(items) - limit} more (see <code>traindoc diagnose --json</code>).</p>" if len(items) > limit else ""
    return f"<table class=grid><tr><th>step</th><th>name</th><th>severity</th><th>message</th></tr>{rows}</table>{more}"


def _verdict(d: Diagnosis) -> str:
    worst = worst_severity(d.causes)
    if d.causes:
        top = d.causes[0]
        text = (f"{len(d.causes)} likely cause(s); most likely <b>{esc(top.name)}</b> ({esc(top.code)}): {esc(top.message)}")
    elif d.symptoms:
        worst = worst_severity(d.symptoms)
        text = f"{len(d.symptoms)} symptom(s) but no cause ranked; see the symptoms and what could not be told."
    else:
        text = "No problem found: no rule fired on the recorded series."
    return f"<div class='verdict {esc(worst or 'ok')}'>{text}</div>"


def _plot_html(p: Plot, n: int) -> str:
    cap = "".join(f"<p class=caption>{esc(c)}</p>" for c in p.caption)
    if p.fig is None:
        return f"<div class=plot id='{esc(p.key)}'><h3>{esc(p.title)}</h3><p class=note>{esc(p.note)}</p></div>"
    return f"<div class=plot id='{esc(p.key)}'><h3>{esc(p.title)}</h3>{to_div(p.fig, f'fig-{n}')}{cap}</div>"


def build_plots(d: Diagnosis, rank: int) -> list[Plot]:
    out = []
    for fn in PLOTS:
        try:
            out.append(fn(d.run, d, rank))
        except Exception as exc:  # noqa: BLE001 - one figure must not cost the whole report
            out.append(Plot(fn.__name__, fn.__name__.replace("_", " "),
                            note=f"could not draw this figure: {type(exc).__name__}: {exc}"))
    return out


def experiments_html(data: dict[str, Any] | None, n: int) -> str:
    """`traindoc confirm`'s verdicts and the loss curves of every re-execution on one
    figure (the baseline in black): the change's effect is the gap between the lines."""
    if not data or not data.get("results"):
        return ""
    from .plotkit import figure

    rows = "".join(f"<tr><td>{esc(r.get('cause'))}</td><td>{esc(r.get('change'))}</td>"
                   f"<td class='{esc(r.get('verdict'))}'>{esc(r.get('verdict'))}</td><td>{esc(r.get('text'))}</td></tr>"
                   for r in data["results"] if isinstance(r, dict))
    out = [f"<h2 id=experiments>Experiments ({esc(data.get('steps'))} steps each, same seed)</h2>",
           "<table class=grid><tr><th>cause</th><th>change</th><th>verdict</th><th>evidence</th></tr>" + rows
           + "</table>"]
    runs = data.get("runs") if isinstance(data.get("runs"), dict) else {}
    labels = {}
    for r in data["results"]:
        if isinstance(r, dict):
            labels.setdefault(r.get("experiment"), r.get("change"))
    fig = figure("training loss", log_y=True)
    for key, run in runs.items():
        curve = run.get("curve") if isinstance(run, dict) else None
        if not isinstance(curve, list) or not curve:
            continue
        base = key == "baseline"
        name = "baseline (no change)" if base else next(
            (str(lab) for exp, lab in labels.items() if isinstance(exp, str) and key.startswith(exp)), key)
        fig.add_scatter(x=[c[0] for c in curve], y=[c[1] for c in curve], mode="lines", name=name,
                        line=dict(color="black", width=3) if base else dict(width=1.5))
    out.append(to_div(fig, f"fig-exp-{n}"))
    return "\n".join(out)


def render(d: Diagnosis, rank: int | None = None) -> str:
    """The whole report as one HTML string."""
    from plotly.offline import get_plotlyjs

    from .. import __version__
    from ..explain import all_docs

    rank = d.run.ranks[0] if rank is None else rank
    docs = all_docs()
    plots = build_plots(d, rank)
    parts = [f"<h1>traindoc report <small>{esc(Path(str(d.run.folder)).name)}</small></h1>",
             "<nav><a href='#causes'>causes</a><a href='#symptoms'>symptoms</a><a href='#cannot-tell'>cannot tell</a>"
             "<a href='#plots'>plots</a></nav>",
             header(d, rank), _verdict(d), "<h2 id=causes>Likely causes, most likely first</h2>"]
    parts += [cause_card(i, f, docs) for i, f in enumerate(d.causes, 1)] or ["<p class=note>No cause was found.</p>"]
    parts.append(f"<h2 id=symptoms>What the run showed ({len(d.symptoms)} symptom(s))</h2>")
    parts.append(_findings_table(d.symptoms, SYMPTOMS_SHOWN) if d.symptoms else "<p class=note>No symptom.</p>")
    crashes = [e for e in d.run.events() if e["kind"] == "exception"]
    for e in crashes[:4]:
        tb = (e.get("data") or {}).get("traceback") if isinstance(e.get("data"), dict) else None
        parts.append(f"<h3>The script raised (rank {esc(e['rank'])}, step {esc(e['step'])})</h3>"
                     f"<pre>{esc(tb or e['message'])}</pre>")
    if d.internal:
        parts.append("<h3>traindoc's own problems (training was not affected)</h3>" + _findings_table(d.internal, 50))
    parts.append(experiments_html(d.experiments, len(plots)))
    parts.append("<h2 id=cannot-tell>Cannot tell</h2>")
    if d.cannot_tell:
        parts.append("<p class=muted>These checks did not run because the series they need were not recorded "
                     "(an imported log or a run without that instrument); their causes are neither confirmed nor ruled out.</p>"
                     "<table class=grid><tr><th>check</th><th>why</th></tr>"
                     + "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in sorted(d.cannot_tell.items()))
                     + "</table>")
    else:
        parts.append("<p class=note>Every check had the series it needs.</p>")
    parts.append("<h2 id=plots>Plots</h2>")
    parts += [_plot_html(p, n) for n, p in enumerate(plots)]
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts.append(f"<footer>Written by traindoc {esc(__version__)} on {now}. Self-contained: plotly.js is embedded, "
                 "nothing is loaded from the network.</footer>")
    title = esc(f"traindoc report: {Path(str(d.run.folder)).name}")
    return (f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>{title}</title>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'><style>{CSS}</style>"
            f"<script type='text/javascript'>{get_plotlyjs()}</script></head><body><main>"
            + "\n".join(parts) + "</main></body></html>")


def write(d: Diagnosis, path: str | os.PathLike, rank: int | None = None) -> Path:
    """Render and write atomically (:func:`traindoc.fileio.atomic_write`)."""
    from ..fileio import atomic_write

    return atomic_write(path, render(d, rank))
