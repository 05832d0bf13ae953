"""fp16-underflow named from a replayed culprit op: the two shapes of bench/real 283/284 (a
FAVOR+ normaliser of exp features that flushed, divided by in float16's backward; an
epsilon of 1e-12 that is 0 in float16), against float16 overflows of large values."""

from __future__ import annotations

import types

from traindoc.forensics.findings import build_findings
from traindoc.forensics.fp16_flush import flushed


def _t(shape, lo, hi, dtype="float16", nan=0, inf=0):
    return {"shape": list(shape), "dtype": dtype, "min": lo, "max": hi, "absmax": max(abs(lo), abs(hi)),
            "nan": nan, "posinf": inf, "neginf": 0, "nonfinite": nan + inf}


def _div(num, den, out, phase="forward", code=None, fp32_finite=False):
    return {"op": "aten::div", "short": "div", "phase": phase, "index": 3, "module": "", "module_type": "Net",
            "node": "DivBackward0" if phase == "backward" else None, "inputs": [num, den], "outputs": [out],
            "scalars": [], "rows": [1], "samples": [1], "source": None, "fp32_finite": fp32_finite, "code": code}


def _findings(c, kind):
    res = {"step": 2, "location": {"kind": kind, "culprit": c}}
    return build_findings(res, types.SimpleNamespace(path="B", meta={}))


def test_a_subnormal_divisor_in_a_float16_backward_is_an_underflow():
    c = _div(_t((32, 48, 32), -1.69, 2.05), _t((32, 48, 1), 4.9e-6, 0.0061), _t((32, 48, 32), -65504, 64032, inf=178),
             phase="backward", fp32_finite=True)
    (f,) = _findings(c, "fp16-overflow")
    assert f.name == "fp16-underflow" and "subnormal" in f.message and f.severity == "error"
    # a large numerator over an ordinary divisor: the values passed 65504 themselves
    c["inputs"] = [_t((32, 48, 32), -9e3, 9e3), _t((32, 48, 1), 0.05, 0.9)]
    assert flushed(c) is None and _findings(c, "fp16-overflow")[0].name == "fp16-overflow"
    # the same op in float32: nothing about float16
    c["inputs"] = [_t((32, 48, 32), -1.69, 2.05, "float32"), _t((32, 48, 1), 4.9e-6, 0.0061, "float32")]
    assert flushed(c) is None


def test_an_epsilon_float16_rounds_to_zero_on_the_ops_line():
    code = "buggy.py:57 in forward: pooled = (h * mask).sum(1) / (mask.sum(1) + 1e-12)"
    c = _div(_t((48, 64), 0, 39.8), _t((48, 1), 0, 58), _t((48, 64), 0, 0.78, nan=64), code=code)
    (f,) = _findings(c, "unstable-op")
    assert f.name == "fp16-underflow" and "1e-12" in f.message and "6.1e-5" in f.fix
    # an epsilon float16 holds (6.1e-5), or the op in float32: the op's own instability
    for cc in (dict(c, code=code.replace("1e-12", "6.1e-5")),
               dict(c, inputs=[_t((48, 64), 0, 39.8, "float32"), _t((48, 1), 0, 58, "float32")])):
        assert flushed(cc) is None and _findings(cc, "unstable-op")[0].name == "unstable-op"


def test_a_literal_that_guards_nothing_here_is_not_the_cause():
    # in a comment, a factor of another term, or a guard whose operand never reached 0
    big = _div(_t((48, 64), -6e4, 6e4), _t((48, 1), 0.1, 3.0), _t((48, 64), -65504, 65504, inf=3),
               code="f.py:9 in f: y = x / (s + 1e-12)", fp32_finite=True)
    assert flushed(big) is None
    zero = _div(_t((48, 64), 0, 39.8), _t((48, 1), 0, 58), _t((48, 64), 0, 0.78, nan=64))
    for line in ("lp = a / b  # TODO add 1e-12", "z = (a / b).mean() + 1e-10 * reg"):
        assert flushed(dict(zero, code=f"f.py:9 in f: {line}")) is None
    assert flushed(dict(zero, code="f.py:9 in f: q = a / b.clamp(min=1e-12)")) is not None


def test_an_epsilon_written_as_a_name_the_script_sets_too_small(tmp_path):
    # pytorch_geometric's EPS = 1e-15 in a float16 graph auto-encoder (bench/real 401): the
    # log's guard is a module constant, read from the recorded script
    (tmp_path / "train.py").write_text("import torch\nEPS = 1e-15\n\ndef recon(p):\n"
                                       "    return -torch.log(p + EPS).mean()\n")
    code = "train.py:5 in recon: return -torch.log(p + EPS).mean()"
    c = {"op": "aten::log", "short": "log", "phase": "forward", "index": 9, "module": None, "module_type": None,
         "node": None, "inputs": [_t((2867,), 0, 0.9888)], "outputs": [_t((2867,), -6.5, -0.01, inf=1)],
         "scalars": [], "rows": [], "samples": None, "source": None, "fp32_finite": False, "code": code}
    meta = {"command": {"script": "train.py", "cwd": str(tmp_path)}}
    res = {"step": 19, "location": {"kind": "unstable-op", "culprit": c}}
    (f,) = build_findings(res, types.SimpleNamespace(path="B", meta=meta))
    assert f.name == "fp16-underflow" and "1e-15" in f.message
    # the same name set to a value float16 holds: the log's own instability
    (tmp_path / "train.py").write_text("import torch\nEPS = 1e-3\n\ndef recon(p):\n    return -torch.log(p + EPS).mean()\n")
    (f,) = build_findings(res, types.SimpleNamespace(path="B", meta=meta))
    assert f.name == "unstable-op"
