"""The table parsers and the name map: property tests against a brute-force model, and
bad input -> one line on stderr, exit code 2."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import run_cli
from traindoc.errors import UserError
from traindoc.importers import load_any
from traindoc.importers.table import read_csv, read_jsonl
from traindoc.importers.tags import traindoc_name

values = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True, width=64))
names = st.text(st.characters(codec="utf-8", exclude_characters="\r\n\x00\"',;\t\\", exclude_categories=("Cs",)),
                min_size=1, max_size=12).filter(lambda s: s.strip() == s and s.lower() not in (
                    "step", "global_step", "iteration", "iter", "it", "trainer/global_step", "_step", "steps"))


@st.composite
def tables(draw):
    cols = draw(st.lists(names, min_size=1, max_size=5, unique_by=str.lower))
    rows = draw(st.lists(st.tuples(st.integers(0, 10**12), st.lists(values, min_size=len(cols), max_size=len(cols))),
                         min_size=1, max_size=40))
    return cols, rows


def expected(cols, rows):
    """Brute force: a later row's value for a step replaces an earlier one; None is absent."""
    out: dict[str, dict[int, float]] = {}
    for step, vals in rows:
        for c, v in zip(cols, vals):
            if v is not None:
                out.setdefault(c, {})[step] = v
    return out


def same(got: dict, b: dict) -> bool:
    from traindoc.importers.base import to_series

    a = {k: dict(zip(s.steps.tolist(), s.values.tolist())) for k, s in to_series(got).items()}
    if a.keys() != b.keys():
        return False
    for k in a:
        if a[k].keys() != b[k].keys():
            return False
        for s in a[k]:
            x, y = a[k][s], b[k][s]
            if not (x == y or (math.isnan(x) and math.isnan(y))):
                return False
    return True


@settings(max_examples=150, deadline=None)
@given(tables(), st.sampled_from([",", ";", "\t"]))
def test_csv_reads_back_what_was_written(tmp_path_factory, table, sep):
    cols, rows = table
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator="\n")
    w.writerow(["step", *cols])
    for step, vals in rows:
        w.writerow([step, *("" if v is None else repr(v) for v in vals)])
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_text(buf.getvalue())
    want = expected(cols, rows)
    if not any(want.values()):
        with pytest.raises(UserError):
            read_csv(path)
        return
    got, ignored = read_csv(path)
    assert ignored == [] and same(got, want)


@settings(max_examples=150, deadline=None)
@given(tables())
def test_jsonl_reads_back_what_was_written(tmp_path_factory, table):
    cols, rows = table
    path = tmp_path_factory.mktemp("jsonl") / "t.jsonl"
    path.write_text("".join(json.dumps({"step": s, **{c: v for c, v in zip(cols, vals) if v is not None}}) + "\n"
                            for s, vals in rows))
    want = expected(cols, rows)
    if not any(want.values()):
        with pytest.raises(UserError):
            read_jsonl(path)
        return
    got, _ = read_jsonl(path)
    assert same(got, want)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_name_map_is_total_and_stable(name):
    dst, pref = traindoc_name(name)
    assert dst is None or isinstance(dst, str)
    assert traindoc_name(name) == (dst, pref)


@pytest.mark.parametrize("src,dst", [
    ("loss", "loss"), ("train/loss", "loss"), ("Loss/train", "loss"), ("train_loss_step", "loss"),
    ("eval_loss", "loss/eval"), ("val_loss", "loss/eval"), ("learning_rate", "lr/0/0"), ("lr-Adam", "lr/0/0"),
    ("lr-AdamW/pg2", "lr/0/1"), ("lr-SGD-1", "lr/1/0"), ("grad_2.0_norm_total", "grad_norm"),
    ("grad_2.0_norm/layer.weight", "grad_norm/layer.weight"), ("lr/1/3", "lr/1/3"), ("accuracy", None),
    ("lr-SGD-momentum", None),
])
def test_name_map_examples(src, dst):
    assert traindoc_name(src)[0] == dst


def test_two_names_for_one_series_keep_the_preferred(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("step,train_loss_epoch,loss\n0,5,1\n1,4,0.5\n")
    run = load_any(p)
    assert run.series("loss").values.tolist() == [1, 0.5] and run.has("train_loss_epoch")


BAD = {
    "empty.csv": b"",
    "header-only.csv": b"step,loss\n",
    "no-step.csv": b"epoch,loss\n0,1.0\n",
    "bad-step.csv": b"step,loss\n0,1.0\nten,0.5\n",
    "negative-step.csv": b"step,loss\n-1,1.0\n",
    "ragged.csv": b"step,loss\n0,1.0,7\n",
    "text-only.csv": b"step,phase\n0,train\n",
    "binary.csv": bytes(range(256)) * 4,
    "latin1.csv": "step,lo\xdfs\n0,1\n".encode("latin-1"),
    "bad.jsonl": b'{"step": 0, "loss": 1}\n{"step": 1, "loss":\n',
    "list.jsonl": b"[1, 2]\n",
    "no-log-history.json": b'{"global_step": 3}',
    "trainer_state.json": b'{"log_history": [{"loss": 1.0}]}',
    "broken.json": b"{not json",
    "model.pt": b"PK\x03\x04 a pickle would be executed by torch.load",
    "events.out.tfevents.123.host": bytes(range(256)),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_one_line_and_exit_2(tmp_path, name, cli):
    p = tmp_path / name
    p.write_bytes(BAD[name])
    for args in (("diagnose", p, "--json"), ("report", p, "-o", tmp_path / "r.html")):
        code, out, err = cli(*args)
        assert code == 2, (out, err)
        assert err.count("\n") == 1 and err.startswith("traindoc: error: ") and str(p) in err, err
        assert out == ""
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("name, data, message", [
    ("huge-step.csv", b"step,loss\n0,1.0\n1e30,0.5\n", ":3: step '1e30' is too large to be a step (at most 2**53)"),
    ("past-int64.jsonl", b'{"step": 0, "loss": 1}\n{"step": 9223372036854775808, "loss": 1}\n',
     ":2: step 9223372036854775808 is too large to be a step"),
    ("bool-step.jsonl", b'{"step": 0, "loss": 1}\n{"step": true, "loss": 1}\n', ":2: step true is a boolean, not a step number"),
    ("decimal-comma.csv", b"step;loss;acc\n1;2,5;0,1\n2;2,4;0,2\n",
     "left out as text: 'acc' (e.g. '0,1'), 'loss' (e.g. '2,5') (decimal commas"),
])
def test_bad_step_or_text_metrics_say_what_is_wrong_in_one_line(tmp_path, name, data, message):
    p = tmp_path / name
    p.write_bytes(data)
    r = run_cli("diagnose", p, "--json")   # a subprocess: a NumPy RuntimeWarning would show on stderr
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and message in r.stderr, r.stderr


def test_missing_and_unknown_folders(tmp_path, cli):
    code, _, err = cli("report", tmp_path / "nope", "-o", tmp_path / "r.html")
    assert code == 2 and err == f"traindoc: error: {tmp_path / 'nope'}: no such file or folder\n"
    r = run_cli("report", tmp_path, "-o", tmp_path / "r.html")   # once through the console script
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "nothing traindoc reads" in r.stderr, r.stderr
    assert not (tmp_path / "r.html").exists()


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_fast_crc_matches_tensorboards_own(data):
    pytest.importorskip("tensorboard")
    from tensorboard.compat.tensorflow_stub.pywrap_tensorflow import masked_crc32c

    from traindoc.importers.tfrecord import masked_crc

    assert masked_crc(data) == masked_crc32c(data)
