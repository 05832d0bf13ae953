"""A rule that raises on a file loses only its own findings there (a warning says so); the
other rules still run, so a lint bug never stops `traindoc lint` or diagnose's code evidence.
And the crash that prompted it: a plain function named `scale(...)` in a float16 script
(bench/real 459) made unscaled-fp16 read `.value` of a Name."""

import dataclasses
import warnings

import pytest

from traindoc.lint import lint_source
from traindoc.lint.registry import RULES, load_all

SRC = """
import torch
import torch.nn.functional as F
def scale(x):
    return (x - x.mean()) / x.std()
x = scale(torch.randn(8, 4)).half()
p = torch.log(F.softmax(x, dim=-1))
p.sum().backward()
"""


def test_plain_scale_function_in_a_half_precision_script_does_not_crash():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no rule may fail on it
        names = {f.name for f in lint_source(SRC, "t.py")}
    assert "log-of-softmax" in names


def test_a_failing_rule_loses_only_its_own_findings(monkeypatch):
    rule = load_all()["unscaled-fp16"]

    def boom(m):
        raise KeyError("a bug")
        yield  # pragma: no cover

    monkeypatch.setitem(RULES, rule.name, dataclasses.replace(rule, fn=boom))
    with pytest.warns(RuntimeWarning, match="unscaled-fp16 failed on t.py"):
        names = {f.name for f in lint_source(SRC, "t.py")}
    assert "log-of-softmax" in names
