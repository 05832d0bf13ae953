"""Strings from the user's code, data and paths are shown as text: never rich markup,
never raw control characters."""

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from traindoc.findings import Finding
from traindoc.report.terminal import console, esc, printable, render_finding


def _render(f: Finding) -> str:
    buf = io.StringIO()
    c = console(buf)
    c.width = 1000  # no wrapping: the test looks for whole strings
    render_finding(c, f, 1)
    return buf.getvalue()


def test_brackets_in_names_and_code_are_printed_as_written():
    f = Finding("unstable-op", "error", "exp in blocks[0].attn made Inf: x[mask] = [/bold] -inf",
                location={"module": "blocks[0]", "step": 3},
                evidence=[{"series": "code", "value": "w = x[..., [1, 2]]  # [red]x[/red]"}],
                fix="see [link=x]docs[/link]", confirm="traindoc replay sweep[lr=0.1]/bundles/step-3")
    text = _render(f)
    for s in ("x[mask] = [/bold] -inf", "blocks[0]", "[red]x[/red]", "[link=x]docs[/link]", "sweep[lr=0.1]"):
        assert s in text


def test_control_characters_are_shown_escaped():
    f = Finding("data-nonfinite", "error", "column \x1b[31mred\x1b[0m holds NaN\x07")
    text = _render(f)
    assert "\x1b" not in text and "\\x1b[31mred" in text and "\\x07" in text
    assert printable("a\tb\nc") == "a\tb\nc"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_string_renders_without_error_and_without_raw_controls(s):
    f = Finding("loss-nonfinite", "error", s, location={"module": s}, fix=s, confirm=s)
    text = _render(f)
    assert "\x1b" not in text
    buf = io.StringIO()
    console(buf).print(f"[bold]x[/] {esc(s)}")
    assert "\x1b" not in buf.getvalue()
