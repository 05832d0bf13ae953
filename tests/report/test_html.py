"""The report's content, through the library: header, causes, symptoms, cannot-tell,
plots present exactly when their series exist, escaping of every user string."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from traindoc import diagnose, open_run
from traindoc.diagnose import Diagnosis
from traindoc.findings import Finding
from traindoc.report import html as report_html
from traindoc.report.html import build_plots, render

from .conftest import CMD_PAYLOAD, FOLDER_PAYLOAD, write_store

MARKUP = '<script>document.title="PWNED"</script><img src=x onerror=alert(1)>'
ALL_PLOTS = ["loss", "lr", "grad-norm", "grad-layers", "update-ratio", "activations", "time", "scaler"]


def plotly_figures(text: str) -> dict[str, dict]:
    """Div id -> {"data": [...], "layout": {...}} of every ``Plotly.newPlot`` call, decoded
    as JSON: the test reads what plotly.js gets, whatever the encoder escapes (plotly 5
    writes ``<`` as ``\\u003c``, plotly 6+ also ``/`` as ``\\u002f``)."""
    dec, out = json.JSONDecoder(), {}
    for m in re.finditer(r'Plotly\.newPlot\(\s*"([^"]+)",\s*', text):
        data, end = dec.raw_decode(text, m.end())
        layout, _ = dec.raw_decode(text, re.compile(r",\s*").match(text, end).end())
        out[m.group(1)] = {"data": data, "layout": layout}
    return out


def trace_names(text: str) -> set[str]:
    return {t.get("name") for f in plotly_figures(text).values() for t in f["data"]}


def plot_keys(text: str) -> dict[str, bool]:
    """Plot section id -> whether it holds a figure (else it holds a note)."""
    out = {}
    for m in re.finditer(r"<div class=plot id='([^']+)'><h3>.*?</h3>(<div|<p class=note)", text):
        out[m.group(1)] = m.group(2) == "<div"
    return out


def test_trained_run_has_every_plot_but_the_scaler_and_works_offline(mlp_run):
    text = render(diagnose(mlp_run))
    assert plot_keys(text) == {k: k != "scaler" for k in ALL_PLOTS}
    assert "No GradScaler was in use" in text
    # Offline: plotly.js is inline and the page names no URL to fetch. (plotly.js itself
    # holds URLs, e.g. the topojson CDN that only geo maps use; the browser test checks
    # that loading the page requests nothing.)
    head, body = text.split("</head>", 1)
    assert re.search(r"<(script|link|img|iframe)[^>]*\b(src|href)=", text) is None
    assert head.count("<script") == 1 and len(head) > 3_000_000  # plotly.js itself
    assert not re.search(r"https?://", body)
    # Header: the run's facts, and the sampling made visible.
    for s in ("finished (exit code 0)", "mlp_basic.py --steps 200 --eval", "torch 2.13.0", "CPU", "Adam", "TensorDataset",
              "of 200 steps sampled"):
        assert s in text, s
    assert {"sampled step", "eval loss"} <= trace_names(text)
    assert "No problem found" in text and "No cause was found" in text


def test_loss_only_run_draws_the_loss_and_notes_the_rest(loss_only_run):
    d = diagnose(loss_only_run)
    text = render(d)
    keys = plot_keys(text)
    assert keys == {k: k == "loss" for k in ALL_PLOTS}
    assert "No per-parameter gradient norms were recorded" in text and "No step times were recorded" in text
    assert d.cannot_tell and all(name in text for name in d.cannot_tell)
    assert "no step was sampled" in text


def test_causes_show_every_field_the_rule_doc_and_rank_order(mlp_run, monkeypatch):
    import traindoc.explain

    docs = {"lr-too-high": [("rules", "What it detects: the LR " + MARKUP + ".\n\nHow to fix: lower ``lr``.")]}
    monkeypatch.setattr(traindoc.explain, "all_docs", lambda: docs)
    run = open_run(mlp_run)
    causes = [
        Finding("lr-too-high", "error", "loss oscillates " + MARKUP, location={"step": 40, "module": MARKUP},
                evidence=[{"series": "loss", "step": 40, "value": float("nan"), "note": MARKUP}],
                fix="divide lr by 10 " + MARKUP, confirm="LR range test " + MARKUP, confidence=0.83),
        Finding("dead-relu", "warning", "half the units of layer 1 never fire", location={"module": "1"},
                confidence=0.4),
    ]
    symptoms = [Finding("loss-spike", "warning", "jump " + MARKUP, location={"step": 17, "param": MARKUP})]
    text = render(Diagnosis(run, causes=causes, symptoms=symptoms, cannot_tell={"bad-init": "not recorded: act/*"}))
    assert MARKUP not in text and "<script>document" not in text and "<img src=x" not in text
    esc = "&lt;script&gt;document.title=&quot;PWNED&quot;&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
    first, second = text.index("1. lr-too-high"), text.index("2. dead-relu")
    assert first < second
    card = text[text.rindex("<div class='card", 0, first):text.rindex("<div class='card", 0, second)]
    for s in ("TD", "confidence 83%", "loss oscillates " + esc, "divide lr by 10 " + esc, "LR range test " + esc,
              "step <span class=mono>40</span>", "value=<span class=mono>nan</span>", "About lr-too-high",
              "<b>What it detects:</b> the LR " + esc, "lower <code>lr</code>", "traindoc explain lr-too-high"):
        assert s in card, s
    assert "About dead-relu" not in text  # no doc for it: no empty box
    assert "jump " + esc in text and "bad-init" in text and "not recorded: act/*" in text
    # The symptom and the cause with a step are marked on the loss plot.
    assert {"symptom: loss-spike", "cause: lr-too-high"} <= trace_names(text)
    assert "verdict error" in text


def test_hostile_names_messages_folder_and_command_are_escaped(hostile_run):
    d = diagnose(hostile_run)
    text = render(d)
    for raw in (CMD_PAYLOAD, FOLDER_PAYLOAD, '<script>document["title"]', "<img src=x onerror='document",
                'onerror="document.body.dataset.pwned=2"', "</b>&amp;"):
        assert raw not in text, raw
    body = text[text.index("</head>"):]
    # The only scripts in the body are plotly's own figure calls.
    assert body.count("<script") == sum(plot_keys(text).values())
    assert "crashed (exit code 1)" in text and "The script raised" in text
    assert "RuntimeError: bad batch &lt;img src=x onerror=&quot;document.body.dataset.pwned=2&quot;&gt;" in text
    assert "&lt;script&gt;document.title=&quot;PWNED&quot;&lt;/script&gt;" in text  # the command line
    # Plot labels reach plotly.js escaped (it would render <b>, <a href>, <img>...).
    keys = plot_keys(text)
    assert keys["grad-layers"] and keys["activations"] and keys["update-ratio"]
    figs = list(plotly_figures(text).values())
    heat = next(t for f in figs for t in f["data"] if t.get("type") == "heatmap")
    assert heat["y"][0] == '&lt;script&gt;document["title"]="PWNED"&lt;/script&gt;.weight'
    strings = json.dumps([f["data"] for f in figs] + [f["layout"] for f in figs], ensure_ascii=False)
    assert "<script" not in strings and "<img" not in strings and "</b>&amp;" not in strings
    assert "loss non-finite" in trace_names(text) and "first at step 50" in text


def test_amp_run_draws_the_scaler_with_its_skipped_steps(amp_run):
    text = render(diagnose(amp_run))
    assert plot_keys(text)["scaler"]
    assert "step skipped (inf/NaN gradients)" in trace_names(text)
    assert re.search(r"\d+ of 60 steps skipped by the scaler", text)


def _big_run(folder):
    n, layers = 20_000, 60
    rng = np.random.default_rng(1)
    steps = np.arange(n)
    loss = 3 * np.exp(-steps / 4000) + 0.1 * rng.random(n)
    loss[12_345] = 50.0           # one spike that decimation must keep
    loss[18_000:] = np.nan        # and a NaN tail
    series = {"loss": loss, "time/step": 0.01 + 0.001 * rng.random(n), "time/data": 0.002 * rng.random(n),
              "lr/0/0": np.full(n, 1e-3), "grad_norm": rng.random(n)}
    sampled = steps[::200]
    series["sampled"] = (sampled, np.ones(len(sampled)))
    for i in range(layers):
        g = 10.0 ** (-i / 10) * (1 + rng.random(n))
        g[15_000 + i] = np.inf
        series[f"grad_norm/blocks.{i}.weight"] = g
        series[f"update_ratio/blocks.{i}.weight"] = (sampled, 1e-3 * (1 + rng.random(len(sampled))))
        for stat in ("std", "absmax", "dead"):
            series[f"act/blocks.{i}/{stat}"] = (sampled, rng.random(len(sampled)))
    return write_store(folder, n, series)


def test_long_run_with_many_layers_stays_drawable(tmp_path):
    d = diagnose(_big_run(tmp_path / "big"))
    plots = {p.key: p for p in build_plots(d, 0)}
    missing = {k: plots[k].note for k in ALL_PLOTS if k != "scaler" and plots[k].fig is None}
    assert not missing, missing
    loss = plots["loss"].fig.data[0]
    assert len(loss.x) <= 4002 and 50.0 in set(np.asarray(loss.y).tolist())  # the spike survived
    marks = next(t for t in plots["loss"].fig.data if t.name == "loss non-finite")
    assert marks.x[0] == 18_000 and len(marks.x) <= 2000
    heat = plots["grad-layers"].fig.data[0]
    assert np.asarray(heat.z).shape == (60, 600)
    assert list(heat.y[:2]) == ["blocks.0.weight", "blocks.1.weight"]  # model order, not alphabetical
    assert any(t.name == "non-finite gradient" for t in plots["grad-layers"].fig.data)
    assert np.asarray(plots["update-ratio"].fig.data[0].z).shape == (60, 100)  # > 16 layers: a heatmap
    assert "10 of the 100 sampled steps drawn" in " ".join(plots["activations"].caption)
    assert len(render(d)) < 12_000_000


def test_a_figure_that_fails_becomes_a_note_not_a_failed_report(mlp_run, monkeypatch):
    def broken(run, d, rank):
        raise ValueError("boom <b>")

    monkeypatch.setattr(report_html, "PLOTS", [broken, *report_html.PLOTS[:1]])
    text = render(diagnose(mlp_run))
    assert "could not draw this figure: ValueError: boom &lt;b&gt;" in text and plot_keys(text)["loss"]


def test_write_is_atomic_and_leaves_no_temp_file(mlp_run, tmp_path):
    out = report_html.write(diagnose(mlp_run), tmp_path / "r.html")
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


@pytest.mark.parametrize("rank_meta", [{"status": "running"}, {}])
def test_partial_meta_still_renders(tmp_path, rank_meta):
    run = write_store(tmp_path / "r", 5, {"loss": [1.0, 0.9, np.inf, 0.8, 0.7]}, meta=rank_meta)
    text = render(diagnose(run))
    assert "traindoc report" in text and json.dumps("loss non-finite")[1:-1] in text


def test_a_constant_learning_rate_is_drawn_on_a_scale_that_shows_it(tmp_path):
    run = write_store(tmp_path / "r", 5, {"loss": [1.0, 0.9, 0.8, 0.7, 0.6], "lr/0/0": [3e-3] * 5})
    lr = next(p for p in build_plots(diagnose(run), 0) if p.key == "lr")
    assert tuple(lr.fig.layout.yaxis.range) == (0, 6e-3)   # plotly's own would be -1..1 around 0.003


def test_an_imported_log_says_where_it_came_from_and_how_it_was_read(tmp_path):
    from traindoc.importers import load_any

    src = tmp_path / "metrics.csv"
    src.write_text("epoch,lr-Adam,step,train_loss_step,val_loss\n,0.001,9,,\n0,,9,0.9,\n0,,9,,1.1\n0,,19,nan,\n")
    text = render(diagnose(load_any(src)))
    for s in ("imported from", "Lightning CSVLogger metrics.csv", "<span class=mono>loss</span> ← "
              "<span class=mono>train_loss_step</span>", "<span class=mono>lr/0/0</span> ← <span class=mono>lr-Adam</span>"):
        assert s in text, s
    assert "<th>device</th>" not in text   # unknown for another tool's log, not "CPU"
    assert plot_keys(text)["loss"] and plot_keys(text)["lr"]


def test_activation_caption_when_no_step_was_sampled_after_the_nan(tmp_path):
    loss = np.linspace(1, 0.5, 60)
    loss[59] = np.nan
    sampled = (np.array([0, 1, 2]), np.ones(3))
    run = write_store(tmp_path / "r", 60, {"loss": loss, "sampled": sampled, "act/fc/std": (sampled[0], [1.0, 1.1, 1.2]),
                                             "update_ratio/fc.weight": (sampled[0], [1e-3, 2e-3, 3e-3])})
    plots = {p.key: p for p in build_plots(diagnose(run), 0)}
    cap = " ".join(plots["activations"].caption)
    assert "No step was sampled at or after the loss went non-finite (step 59)" in cap and "at or after" in cap
    assert "is the first sampled step" not in cap
    assert list(plots["update-ratio"].fig.layout.xaxis.tickvals) == [0, 1, 2]
