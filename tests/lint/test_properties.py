"""Property tests: resolution does not depend on how imports are spelled; lint never crashes."""

import keyword

from hypothesis import given, settings
from hypothesis import strategies as st

from traindoc.lint import lint_source

ident = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda s: not keyword.iskeyword(s) and s not in ("torch", "x", "p", "y", "nn", "softmax")
)


@settings(max_examples=60, deadline=None)
@given(alias=ident, var=ident, dim=st.integers(-3, 3), guard=st.booleans(), method=st.booleans())
def test_alias_names_do_not_change_the_verdict(alias, var, dim, guard, method):
    call = f"x.softmax({dim})" if method else f"{alias}.softmax(x, {dim})"
    arg = f"{var} + 1e-9" if guard else var
    src = f"import torch\nimport torch.nn.functional as {alias}\n{var} = {call}\ny = torch.log({arg})\n"
    got = [f.name for f in lint_source(src, "t.py")]
    assert got == ([] if guard else ["log-of-softmax"])


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("torch.log(softmax x)=\n:/ .exp sum backward step 0")), max_size=200))
def test_any_text_gives_findings_or_a_parse_error_never_an_exception(src):
    fs = lint_source(src, "fuzz.py")
    assert all(f.location["line"] >= 1 for f in fs)
