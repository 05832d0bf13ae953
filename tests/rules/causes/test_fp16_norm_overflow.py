"""fp16-overflow seen without any inf: a hand-written RMSNorm under float16 autocast whose
input reaches past 256 (bench/real 279, LeetCUDA#335): the mean square overflows to inf,
rsqrt(inf) = 0, and the layer outputs exact zeros for every loud sample. The same norm
accumulating in float32 outputs no zeros and gets nothing of the kind."""

import pytest
import torch
from torch import nn
import torch.nn.functional as F

import traindoc


class RMSNorm(nn.Module):
    def __init__(self, dim, upcast):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.upcast = upcast

    def forward(self, x):
        h = x.float() if self.upcast else x
        return (h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)).to(x.dtype) * self.weight


@pytest.mark.parametrize("upcast", [False, True])
def test_a_norm_whose_mean_square_overflows_float16(tmp_path, upcast):
    torch.manual_seed(0)
    gain = 10 ** (4 * torch.rand(512, 1))  # recording gains over four decades: half the rows are loud
    X, y = torch.randn(512, 40).abs() * gain, torch.randint(0, 4, (512,))
    model = nn.Sequential(nn.Linear(40, 32), RMSNorm(32, upcast), nn.Linear(32, 4))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False, sample_every=2):
        for i in [torch.randperm(512)[:64] for _ in range(30)]:
            with torch.autocast("cpu", dtype=torch.float16):
                loss = F.cross_entropy(model(X[i]), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    got = [c for c in traindoc.diagnose(tmp_path / "r").causes
           if c.name == "fp16-overflow" and "outputs exactly 0" in c.message]
    if upcast:
        assert got == []
    else:
        (c,) = got
        assert c.severity == "error" and "RMSNorm layer 1" in c.message
