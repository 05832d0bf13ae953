"""Test: a checkpoint written tensor-by-tensor loads back with the same contents."""
import torch


class IncrementalWriter:
    def __init__(self, path):
        self.path = path
        self.stored = {}

    def __enter__(self):
        return self

    def store_early(self, tensor):
        key = len(self.stored)
        self.stored[key] = tensor.detach().clone()
        return self.stored[key]

    def save(self, state_dict):
        torch.save(state_dict, self.path)

    def __exit__(self, *exc):
        self.stored.clear()
        return False


def test_incremental_write(tmp_path):
    sd = {str(k): torch.randn(5, 10) for k in range(3)}
    sd["0"].someattr = 1
    sd_expected = {k: v.clone() for k, v in sd.items()}
    fn = str(tmp_path / "test.pt")
    with IncrementalWriter(fn) as f:
        sd["0"] = f.store_early(sd["0"])
        sd["2"] = f.store_early(sd["2"])
        f.save(sd)
    sd_actual = torch.load(fn)  # expect: torch-load-unsafe
    assert sd_actual.keys() == sd_expected.keys()
    for k, v_expected in sd_expected.items():
        v_actual = sd_actual[k]
        torch.testing.assert_close(v_expected, v_actual)
