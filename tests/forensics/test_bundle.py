"""The bundle's batch format: any nesting of tensors, arrays and scalars round-trips through
tensors + JSON, and other types are refused (the replay then rebuilds from indices)."""

import json
from collections import namedtuple

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from traindoc.forensics.bundle import Unsupported, flatten, unflatten

leaf = st.one_of(
    st.integers(-5, 5).map(lambda n: torch.arange(abs(n) + 1, dtype=torch.int64) * n),
    st.floats(-1e30, 1e30, allow_nan=False).map(lambda x: torch.tensor([x, float("nan"), float("-inf")])),
    st.integers(1, 4).map(lambda n: np.ones((n, 2), dtype=np.float32)),
    st.integers(), st.floats(allow_nan=False), st.text(max_size=5), st.none(), st.booleans(),
)
tree = st.recursive(leaf, lambda c: st.one_of(st.lists(c, max_size=3), st.tuples(c, c),
                                              st.dictionaries(st.text(max_size=3), c, max_size=3)), max_leaves=8)


def _same(a, b):
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a.nan_to_num(0.5), b.nan_to_num(0.5))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, dict):
        return type(b) is dict and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@settings(max_examples=60, deadline=None)
@given(tree)
def test_round_trip(batch):
    leaves = []
    spec = json.loads(json.dumps(flatten(batch, leaves)))  # the spec is plain JSON
    assert _same(batch, unflatten(spec, leaves))


def test_custom_types_are_refused():
    P = namedtuple("P", "x y")
    with pytest.raises(Unsupported):
        flatten(P(torch.zeros(1), torch.ones(1)), [])
    with pytest.raises(Unsupported):
        flatten({"x": object()}, [])


def test_a_compressed_tensor_file_is_refused_before_it_inflates(tmp_path):
    """torch.save stores entries uncompressed; 64 MiB of zeros deflated to ~64 KiB is a bomb."""
    import zipfile

    import pytest as _pytest

    from traindoc.errors import UserError
    from traindoc.forensics.bundle import Bundle

    b = tmp_path / "b"
    b.mkdir()
    (b / "meta.json").write_text('{"format": 1, "step": 1}')
    with zipfile.ZipFile(b / "model.pt", "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("archive/data/0", bytes(64 << 20))
    with _pytest.raises(UserError, match="refusing to inflate"):
        Bundle(b).load("model.pt")


def test_a_batch_changed_in_place_after_hand_over_is_marked(tmp_path):
    """The bundle can only hold the batch as it is at the trigger; when the loop changed it in
    place (x.sub_(mean)), the bundle says so and the replay explains a 'reproduced: no'."""
    import json as _json

    import traindoc
    from traindoc.forensics.cli import why_not_reproduced

    def train(out, in_place):
        torch.manual_seed(0)
        m = torch.nn.Linear(4, 1)
        opt = torch.optim.SGD(m.parameters(), lr=0.1)
        xs = torch.randn(64, 4)
        xs[13, 1] = float("nan")
        data = torch.utils.data.TensorDataset(xs, torch.randn(64, 1))
        with traindoc.watch(out=out, replay=False):
            for x, y in torch.utils.data.DataLoader(data, batch_size=8):
                if in_place:
                    x.sub_(x.mean())
                loss = torch.nn.functional.mse_loss(m(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
        (bundle,) = (out / "bundles").iterdir()
        return _json.loads((bundle / "meta.json").read_text())["batches"][0]

    assert train(tmp_path / "a", in_place=True).get("modified_in_place") is True
    assert "modified_in_place" not in train(tmp_path / "b", in_place=False)
    text = why_not_reproduced({"script_runs": ["done"], "batch_modified_in_place": True})
    assert "changed the batch in place" in text[0]
