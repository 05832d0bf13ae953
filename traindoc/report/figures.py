"""Per-step figures: loss with its anomalies, learning rate, global gradient norm,
GradScaler scale, step-time split. Each is a pure function (run, diagnosis, rank) ->
:class:`Plot`; a figure whose series were not recorded comes back as a note instead.
"""

from __future__ import annotations

import re

import numpy as np

from ..diagnose import Diagnosis
from ..numfmt import fmt
from ..store.reader import Run, Series
from .downsample import bucket_mean, minmax_indices, step_edges
from .plotkit import (LINE_POINTS, SEVERITY_COLOR, Plot, figure, label, log_floor, mark,
                      overlay_axis, scale_buttons, thin, wants_log, wrap)

PALETTE = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


def _line(fig, s: Series, name: str, color: str | None = None, shape: str = "linear",
          width: float = 1.5, floor: float | None = None, **kw) -> None:
    import plotly.graph_objects as go

    i = minmax_indices(s.values, LINE_POINTS)
    y = s.values[i]
    if floor is not None:
        y = np.where(y <= 0, floor, y)
    y = np.where(np.isfinite(y), y, np.nan)  # plotly draws a gap at null
    fig.add_trace(go.Scatter(x=s.steps[i], y=y, name=name, mode="lines", line_shape=shape,
                             line=dict(width=width, color=color), **kw))


def nonfinite_steps(s: Series) -> list[int]:
    return [int(x) for x in s.steps[~np.isfinite(s.values)]]


def sampled_steps(run: Run, rank: int) -> list[int]:
    s = run.series("sampled", rank)
    return [int(x) for x in s.steps[s.values > 0]]


def anomaly_marks(fig, run: Run, d: Diagnosis, rank: int, bad: list[int], bad_label: str) -> list[str]:
    """Non-finite steps, symptom and cause steps on the top strip, sampled steps on the
    bottom one. Returns caption lines."""
    overlay_axis(fig)
    cap = []
    if bad:
        shown = thin(bad)
        mark(fig, shown, 0.97, bad_label, SEVERITY_COLOR["error"], "x",
             [f"step {x}: {label(bad_label)}" for x in shown])
        cap.append(f"{bad_label}: {len(bad)} step(s), first at step {bad[0]}"
                   + (f" ({len(shown)} marked)" if len(shown) < len(bad) else ""))
    for kind, findings, y, symbol in (("symptom", d.symptoms, 0.91, "triangle-down"),
                                      ("cause", d.causes, 0.85, "diamond")):
        by_name: dict[str, list] = {}
        for f in findings:
            st = f.location.get("step")
            if isinstance(st, (int, np.integer)) and f.location.get("rank", rank) == rank:
                by_name.setdefault(f.name, []).append(f)
        for name, fs in by_name.items():
            fs = fs[:500]
            color = SEVERITY_COLOR[min((f.severity for f in fs), key=["error", "warning", "info"].index)]
            mark(fig, [int(f.location["step"]) for f in fs], y, f"{kind}: {name}", color, symbol,
                 [f"step {f.location['step']}: <b>{label(f.name)}</b> {label(f.code)}<br>{wrap(f.message)}" for f in fs])
    sampled = sampled_steps(run, rank)
    if sampled:
        mark(fig, thin(sampled), 0.02, "sampled step", "#9e9e9e", "line-ns-open", None, size=8)
    return cap


def loss_plot(run: Run, d: Diagnosis, rank: int) -> Plot:
    p = Plot("loss", "Loss")
    s = run.series("loss", rank)
    if s.empty:
        p.note = "No training loss was recorded (series `loss`)."
        return p
    others = [r for r in run.ranks if r != rank and run.has("loss", r)][:7]
    log = wants_log(s.values)
    fig = figure("loss", height=420, log_y=log)
    _line(fig, s, "train loss" + (f" (rank {rank})" if others else ""), PALETTE[0], width=1.6)
    for j, r in enumerate(others):
        _line(fig, run.series("loss", r), f"train loss (rank {r})", PALETTE[(j + 2) % len(PALETTE)],
              width=1, opacity=0.6)
    for name, extra in sorted(run.matching("loss/", rank).items()):
        if name == "eval":
            continue
        _line(fig, extra, label("loss/" + name), None, width=1, opacity=0.7)
    ev = run.series("loss/eval", rank)
    if not ev.empty:
        import plotly.graph_objects as go

        fig.add_trace(go.Scatter(x=ev.steps, y=np.where(np.isfinite(ev.values), ev.values, np.nan),
                                 name="eval loss", mode="lines+markers",
                                 line=dict(color="#d62728", width=1.6), marker=dict(size=5)))
    bad = nonfinite_steps(s)
    p.caption = anomaly_marks(fig, run, d, rank, bad, "loss non-finite")
    scale_buttons(fig, log)
    fin = s.values[np.isfinite(s.values)]
    if len(fin):
        p.caption.insert(0, f"{len(s)} steps ({int(s.steps[0])}..{int(s.steps[-1])}); loss first "
                            f"{fmt(fin[0])}, last finite {fmt(fin[-1])}, min {fmt(fin.min())}"
                            + (f"; eval loss at {len(ev)} step(s), last {fmt(ev.values[-1])}" if not ev.empty else ""))
    if len(s) > LINE_POINTS:
        p.caption.append(f"Lines show each bucket's min and max of {len(s)} points, so single-step spikes stay visible.")
    p.caption.append("Marks: top strip = non-finite steps, symptoms and causes (hover for the message); "
                     "bottom strip = the steps whose expensive statistics were sampled.")
    p.fig = fig
    return p


_OWN_LR = re.compile(r"(\d+)/(\d+)")


def lr_plot(run: Run, d: Diagnosis, rank: int) -> Plot:
    p = Plot("lr", "Learning rate")
    lrs = run.matching("lr/", rank)
    if not lrs:
        p.note = "No learning rate was recorded (series `lr/*`)."
        return p
    allv = np.concatenate([s.values for s in lrs.values()])
    fig = figure("learning rate", height=300, log_y=wants_log(allv, 10))
    for j, (name, s) in enumerate(sorted(lrs.items())):
        # traindoc's own lr/<optimizer>/<param group>; an imported name that merely
        # starts with lr/ (lr/encoder, lr/Adam/pg2) is shown as it was logged.
        own = _OWN_LR.fullmatch(name)
        text = f"optimizer {own[1]}, group {own[2]}" if own else f"lr/{name}"
        _line(fig, s, label(text), PALETTE[j % len(PALETTE)], shape="hv")
    fin = allv[np.isfinite(allv)]
    if len(fin) and fin.min() == fin.max() > 0:
        # plotly pads a constant series by +-1: 3e-3 would sit on a 0 tick of a -1..1 axis.
        fig.update_yaxes(type="linear", range=[0, 2 * float(fin.max())])
    if len(fin):
        p.caption.append(f"{len(lrs)} param group(s); learning rate from {fmt(fin.min())} to {fmt(fin.max())}.")
    p.fig = fig
    return p


def grad_norm_plot(run: Run, d: Diagnosis, rank: int) -> Plot:
    p = Plot("grad-norm", "Global gradient norm")
    names = [n for n in ("grad_norm", "grad_norm_preclip") if run.has(n, rank)]
    if not names:
        p.note = "No global gradient norm was recorded (series `grad_norm`)."
        return p
    series = [run.series(n, rank) for n in names]
    allv = np.concatenate([s.values for s in series])
    fin = allv[np.isfinite(allv)]
    log = bool(len(fin) and (fin > 0).any())  # norms span decades; zeros go to a floor
    fig = figure("‖g‖₂", height=320, log_y=log)
    floor = log_floor(allv) if log else None
    labels = {"grad_norm": "gradient norm (as stepped)", "grad_norm_preclip": "before clip_grad_norm_"}
    for j, s in enumerate(series):
        _line(fig, s, labels[s.name], PALETTE[j], floor=floor, width=1.3)
    bad = sorted(set(nonfinite_steps(series[0])) | set(_positive_steps(run.series("grad_nonfinite", rank))))
    p.caption = anomaly_marks(fig, run, d, rank, bad, "gradient non-finite")
    if floor is not None and np.any(allv == 0):
        p.caption.append(f"Zero norms are drawn at {fmt(floor)}.")
    scale_buttons(fig, log)
    p.fig = fig
    return p


def _positive_steps(s: Series) -> list[int]:
    return [] if s.empty else [int(x) for x in s.steps[s.values > 0]]


def scaler_plot(run: Run, d: Diagnosis, rank: int) -> Plot:
    p = Plot("scaler", "GradScaler scale")
    scales = {k: v for k, v in run.matching("scaler", rank).items() if k.endswith("/scale")}
    if not scales:
        p.note = "No GradScaler was in use (or none was recorded: series `scaler/scale`)."
        return p
    fig = figure("loss scale", height=280, log_y=True)
    for j, (k, s) in enumerate(sorted(scales.items())):
        _line(fig, s, label("scaler" + k), PALETTE[j % len(PALETTE)], shape="hv")
    skipped = _positive_steps(run.series("scaler/skipped", rank))
    overlay_axis(fig)
    if skipped:
        mark(fig, thin(skipped), 0.97, "step skipped (inf/NaN gradients)", SEVERITY_COLOR["warning"], "x")
    total = len(run.series("loss", rank)) or len(next(iter(scales.values())))
    p.caption.append(f"{len(skipped)} of {total} steps skipped by the scaler.")
    p.fig = fig
    return p


def time_plot(run: Run, d: Diagnosis, rank: int) -> Plot:
    import plotly.graph_objects as go

    p = Plot("time", "Step time: data wait vs compute")
    step, data = run.series("time/step", rank), run.series("time/data", rank)
    if step.empty:
        p.note = "No step times were recorded (series `time/step`)."
        return p
    edges = step_edges(int(step.steps[0]), int(step.steps[-1]), 1500)
    x = edges[:-1]
    total = bucket_mean(step.steps, step.values, edges)
    fig = figure("seconds per step", height=320)
    if data.empty:
        fig.add_trace(go.Scatter(x=x, y=total, name="step", mode="lines", line=dict(color=PALETTE[0])))
        p.caption.append("The data-loader wait (series `time/data`) was not recorded: total step time only.")
    else:
        # Align data wait to the step series: a step with no recorded wait waited 0 s.
        wait = np.zeros(len(step))
        j = np.searchsorted(data.steps, step.steps)
        ok = (j < len(data)) & (data.steps[np.minimum(j, len(data) - 1)] == step.steps)
        wait[ok] = np.nan_to_num(data.values[j[ok]])
        wait = np.minimum(np.maximum(wait, 0), np.nan_to_num(step.values))
        w = bucket_mean(step.steps, wait, edges)
        c = np.maximum(total - w, 0)
        fig.add_trace(go.Scatter(x=x, y=w, name="waiting for data", mode="lines", stackgroup="t",
                                 line=dict(width=0.5, color="#ef6c00")))
        fig.add_trace(go.Scatter(x=x, y=c, name="compute (rest of the step)", mode="lines", stackgroup="t",
                                 line=dict(width=0.5, color=PALETTE[0])))
        tot = float(np.nansum(step.values))
        if tot > 0:
            p.caption.append(f"Data wait is {100 * float(wait.sum()) / tot:.1f} % of the {tot:.3g} s of step time; "
                             f"median step {1000 * float(np.nanmedian(step.values)):.3g} ms.")
    if len(edges) - 1 < len(step):
        p.caption.append(f"Each point is the mean of about {len(step) / (len(edges) - 1):.0f} steps.")
    p.fig = fig
    return p
