"""Per-layer figures, in model order (input first): gradient norm per parameter over
steps (a log10 heatmap), update-to-weight ratios at the sampled steps, activation
statistics by depth at the sampled steps. Pure functions (run, diagnosis, rank) -> Plot.
"""

from __future__ import annotations

import numpy as np

from ..diagnose import Diagnosis
from ..numfmt import fmt
from ..store.reader import Run, Series
from .downsample import bucket_max, spread, step_edges
from .figures import PALETTE, nonfinite_steps, sampled_steps
from .order import module_classes, module_order, sort_modules, sort_params
from .plotkit import HEAT_COLUMNS, SEVERITY_COLOR, Plot, figure, label, log_floor

TICK_LABELS_MAX = 80       # rows/columns beyond this: labels only on hover
TICK_LABEL_CHARS = 40      # longer names are shortened on the axis, full on hover
LINES_MAX = 16             # update ratios: lines up to this many parameters, a heatmap beyond
STEPS_SHOWN = 10           # activation profiles drawn (of the sampled steps)
ACT_STATS = {              # stat -> (label, log axis when positive)
    "std": ("standard deviation", True),
    "absmax": ("largest |value|", True),
    "mean": ("mean", False),
    "dead": ("dead fraction (ReLU-like: never positive in the batch)", False),
    "zero": ("fraction exactly 0", False),
    "saturated": ("saturated fraction (sigmoid/tanh within 0.01 of a bound)", False),
    "fp16_over": ("fraction beyond float16's 65504", False),
}


def _rows_height(rows: int) -> int:
    return int(min(1200, max(260, 140 + 16 * rows)))


def _log10_with_floor(z: np.ndarray) -> tuple[np.ndarray, float | None]:
    floor = log_floor(z)
    out = np.full(z.shape, np.nan)
    if floor is not None:
        fin = np.isfinite(z)
        out[fin] = np.log10(np.where(z[fin] > 0, z[fin], floor))
    return out, floor


def category_ticks(names: list[str], limit: int = TICK_LABEL_CHARS) -> dict:
    """Axis settings for categories named by full (escaped, unique) labels but shown
    shortened: two long names with one prefix stay two rows."""
    return dict(type="category", tickmode="array", tickvals=[label(n) for n in names],
                ticktext=[label(n, limit) for n in names], showticklabels=len(names) <= TICK_LABELS_MAX,
                tickfont=dict(size=10))


def _heatmap(fig, x, names: list[str], z: np.ndarray, title: str, hover_x: str) -> None:
    import plotly.graph_objects as go

    fig.add_trace(go.Heatmap(
        x=x, y=[label(n) for n in names], z=z, colorscale="Viridis",
        colorbar=dict(title=dict(text=title, side="right")),
        hovertemplate="%{y}<br>" + hover_x + "<br>" + title + " = %{z:.2f}<extra></extra>",
    ))
    fig.update_yaxes(autorange="reversed", title=None, **category_ticks(names))


def grad_heatmap(run: Run, d: Diagnosis, rank: int) -> Plot:
    import plotly.graph_objects as go

    p = Plot("grad-layers", "Gradient norm per layer (log10)")
    per = {k: s for k, s in run.matching("grad_norm/", rank).items() if not s.empty}
    if not per:
        p.note = "No per-parameter gradient norms were recorded (series `grad_norm/*`)."
        return p
    names = sort_params(per, module_order(run.meta_for(rank)))
    first = min(int(s.steps[0]) for s in per.values())
    last = max(int(s.steps[-1]) for s in per.values())
    # Keep the cell count near 300k whatever the model: wide for few layers, narrow for many.
    cols = int(min(HEAT_COLUMNS, max(100, 300_000 // len(names))))
    edges = step_edges(first, last, cols)
    z = np.full((len(names), len(edges) - 1), np.nan)
    bad = np.zeros(z.shape, np.int64)
    for i, n in enumerate(names):
        z[i], bad[i] = bucket_max(per[n].steps, per[n].values, edges)
    zz, floor = _log10_with_floor(z)
    labels = [label(n) for n in names]
    fig = figure("", height=_rows_height(len(names)))
    centers = (edges[:-1] + edges[1:] - 1) / 2
    _heatmap(fig, centers, names, zz, "log10 ‖g‖", "step ≈ %{x:.0f}")
    r, c = np.nonzero(bad)
    if len(r):
        keep = np.arange(len(r))[:5000]
        fig.add_trace(go.Scatter(x=centers[c[keep]], y=[labels[i] for i in r[keep]], mode="markers",
                                 name="non-finite gradient", marker=dict(symbol="x", color=SEVERITY_COLOR["error"], size=7),
                                 hovertemplate="%{y}<br>step ≈ %{x:.0f}<br>non-finite gradient<extra></extra>"))
    p.caption.append(f"{len(names)} parameter tensors, input layers at the top; each cell is the largest norm "
                     f"in its step bucket" + (f" of about {(last - first + 1) / (len(edges) - 1):.0f} steps." if len(edges) - 1 < last - first + 1 else "."))
    if floor is not None and np.any(z == 0):
        p.caption.append(f"Zero norms are drawn at 10^{np.log10(floor):.0f}; blank cells were not recorded.")
    if len(r):
        p.caption.append(f"x marks {len(r)} cell(s) with a NaN/Inf gradient.")
    if len(names) > TICK_LABELS_MAX:
        p.caption.append("Too many rows to label: hover a row for its parameter name.")
    p.fig = fig
    return p


def _at(s: Series, step: int) -> float:
    i = int(np.searchsorted(s.steps, step))
    return float(s.values[i]) if i < len(s) and s.steps[i] == step else float("nan")


def update_ratio_plot(run: Run, d: Diagnosis, rank: int) -> Plot:
    import plotly.graph_objects as go

    p = Plot("update-ratio", "Update-to-weight ratio per layer (‖Δw‖/‖w‖, sampled steps)")
    per = {k: s for k, s in run.matching("update_ratio/", rank).items() if not s.empty}
    if not per:
        p.note = "No update ratios were recorded (series `update_ratio/*`, measured at sampled steps)."
        return p
    names = sort_params(per, module_order(run.meta_for(rank)))
    steps = sorted(set(np.concatenate([per[n].steps for n in names]).tolist()))
    z = np.array([[_at(per[n], st) for st in steps] for n in names])
    if len(names) <= LINES_MAX:
        floor = log_floor(z)
        fig = figure("‖Δw‖ / ‖w‖", height=380, log_y=floor is not None)
        if len(steps) <= 12:   # few sampled steps: ticks on them, not at 0.5, 1.5, ...
            fig.update_xaxes(tickmode="array", tickvals=list(steps))
        for j, n in enumerate(names):
            y = per[n].values
            y = np.where(np.isfinite(y), np.where(y > 0, y, floor or 0), np.nan)
            fig.add_trace(go.Scatter(x=per[n].steps, y=y, name=label(n, TICK_LABEL_CHARS), mode="lines+markers",
                                     hovertemplate=label(n) + "<br>step %{x}<br>ratio %{y:.3g}<extra></extra>",
                                     line=dict(width=1.2, color=PALETTE[j % len(PALETTE)] if j < len(PALETTE) else None),
                                     marker=dict(size=6)))
        fig.add_trace(go.Scatter(x=[steps[0], steps[-1]], y=[1e-3, 1e-3], mode="lines", name="1e-3 (typical)",
                                 line=dict(dash="dash", color="#9e9e9e", width=1), hoverinfo="skip"))
        if floor is not None and np.any(z == 0):
            p.caption.append(f"A ratio of 0 (the parameter did not move) is drawn at {fmt(floor)}.")
    else:
        zz, floor = _log10_with_floor(z)
        fig = figure("", height=_rows_height(len(names)))
        fig.update_xaxes(type="category", title="sampled step")
        _heatmap(fig, [str(s) for s in steps], names, zz, "log10 ‖Δw‖/‖w‖", "step %{x}")
        if floor is not None and np.any(z == 0):
            p.caption.append(f"A ratio of 0 (the parameter did not move) is drawn at 10^{np.log10(floor):.0f}.")
    fin = z[np.isfinite(z) & (z > 0)]
    if len(fin):
        p.caption.insert(0, f"{len(names)} parameter tensors at {len(steps)} sampled step(s); median ratio "
                            f"{fmt(float(np.median(fin)))} (around 1e-3 is typical for a healthy run with Adam or SGD).")
    p.fig = fig
    return p


def activation_plot(run: Run, d: Diagnosis, rank: int) -> Plot:
    import plotly.graph_objects as go
    from plotly.colors import sample_colorscale

    p = Plot("activations", "Activation statistics by depth (sampled steps)")
    acts = _activation_series(run, rank)
    if not acts:
        p.note = "No activation statistics were recorded (series `act/*`, measured at sampled steps on leaf modules)."
        return p
    modules = sort_modules({m for per in acts.values() for m in per}, module_order(run.meta_for(rank)))
    stats = [k for k in ACT_STATS if k in acts]
    steps = sorted({int(x) for per in acts.values() for s in per.values() for x in s.steps})
    loss = run.series("loss", rank)
    bad = nonfinite_steps(loss)
    must = [next((s for s in steps if s >= bad[0]), steps[-1])] if bad else []
    shown = spread(steps, STEPS_SHOWN, must)
    colors = sample_colorscale("Viridis", [i / max(1, len(shown) - 1) * 0.9 for i in range(len(shown))])
    classes = module_classes(run.meta_for(rank))
    names = [f"{m} · {classes[m]}" if m in classes else m for m in modules]
    labels = [label(n) for n in names]
    fig = figure("", height=420)
    for stat in stats:
        per = acts[stat]
        for j, st in enumerate(shown):
            y = [(_at(per[m], st) if m in per else float("nan")) for m in modules]
            fig.add_trace(go.Scatter(
                x=labels, y=[v if np.isfinite(v) else None for v in y], name=f"step {st}", mode="lines+markers",
                visible=stat == stats[0], connectgaps=True, line=dict(width=1.3, color=colors[j]), marker=dict(size=5),
                legendgroup=f"s{st}",
                hovertemplate="%{x}<br>step " + str(st) + "<br>" + stat + " = %{y:.4g}<extra></extra>",
            ))
    _activation_layout(fig, acts, stats, len(shown), names, labels)
    p.caption.append(f"{len(modules)} leaf modules; {len(shown)} of the {len(steps)} sampled steps drawn "
                     f"({', '.join(map(str, shown))}), dark = early, yellow = late. Choose the statistic in the menu "
                     f"({', '.join(stats)}).")
    if must and must[0] >= bad[0]:
        p.caption.append(f"Step {must[0]} is the first sampled step at or after the loss went non-finite (step {bad[0]}).")
    elif must:
        p.caption.append(f"No step was sampled at or after the loss went non-finite (step {bad[0]}); "
                         f"the last sampled step, {must[0]}, is drawn.")
    p.fig = fig
    return p


def _activation_series(run: Run, rank: int) -> dict[str, dict[str, Series]]:
    """statistic -> module -> its series, of the recorded ``act/<module>/<statistic>``."""
    acts: dict[str, dict[str, Series]] = {}
    for key, s in run.matching("act/", rank).items():
        mod, _, stat = key.rpartition("/")
        if mod and stat in ACT_STATS and not s.empty:
            acts.setdefault(stat, {})[mod] = s
    return acts


def _activation_axis(stat: str, per: dict[str, Series]) -> dict:
    """The y axis of one statistic: log when it is logarithmic and every finite value > 0."""
    title, log = ACT_STATS[stat]
    vals = np.concatenate([s.values for s in per.values()])
    use_log = log and bool(np.isfinite(vals).any()) and bool(np.all(vals[np.isfinite(vals)] > 0))
    return {"yaxis.type": "log" if use_log else "linear", "yaxis.title.text": title}


def _activation_layout(fig, acts: dict[str, dict[str, Series]], stats: list[str], n: int, names: list[str],
                       labels: list[str]) -> None:
    """The statistic menu (each choice shows its ``n`` step traces), the axes and the legend."""
    buttons = [dict(label=stat, method="update",
                    args=[{"visible": [k == i for k in range(len(stats)) for _ in range(n)]},
                          _activation_axis(stat, acts[stat])])
               for i, stat in enumerate(stats)]
    first = _activation_axis(stats[0], acts[stats[0]])
    fig.update_layout(
        yaxis=dict(type=first["yaxis.type"], title=dict(text=first["yaxis.title.text"])),
        xaxis=dict(title="module, input to output", categoryorder="array", categoryarray=labels,
                   tickangle=-35 if len(labels) > 6 else 0, **category_ticks(names, 28)),
        legend=dict(orientation="v", x=1.01, y=1, yanchor="top", xanchor="left", font=dict(size=11)),
        updatemenus=[dict(type="dropdown", x=0, xanchor="left", y=1.02, yanchor="bottom", buttons=buttons,
                          showactive=True, font=dict(size=11))],
        margin=dict(t=50, b=120 if len(labels) > 6 else 50, r=110),
    )


def sampling_summary(run: Run, rank: int) -> str:
    """One line on what was sampled, for the header."""
    sampled = sampled_steps(run, rank)
    loss = run.series("loss", rank)
    info = run.meta_for(rank).get("sampling") or {}
    if not sampled:
        return "no step was sampled (no activation statistics or update ratios)"
    parts = [f"{len(sampled)} of {len(loss) or '?'} steps sampled"]
    if info.get("fixed"):
        parts.append(f"every {info['fixed']} steps (fixed)")
    elif info.get("interval"):
        parts.append(f"adaptive, last interval {info['interval']} steps, budget {100 * float(info.get('budget') or 0):.0f} % of step time")
    return ", ".join(parts)
