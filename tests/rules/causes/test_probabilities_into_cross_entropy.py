"""loss-mismatch from the input cross_entropy is given: rows that sum to 1 over the classes
are probabilities, a softmax (here a function in forward, no nn.Softmax module to see)
before a loss that applies log_softmax again (bench/real 336, 342)."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


class _Net(nn.Module):
    def __init__(self, softmax: bool):
        super().__init__()
        self.hidden, self.out, self.softmax = nn.Linear(20, 32), nn.Linear(32, 4), softmax

    def forward(self, x):
        z = self.out(F.relu(self.hidden(x)))
        return F.softmax(z, dim=1) if self.softmax else z


def _train(tmp_path, softmax: bool):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(512, 20, generator=g)
    y = x[:, :4].argmax(1)
    torch.manual_seed(0)
    model = _Net(softmax)
    opt = torch.optim.Adam(model.parameters(), 3e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(60):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(tmp_path / "r").causes


def test_a_softmax_in_forward_before_cross_entropy(tmp_path):
    causes = _train(tmp_path, softmax=True)
    assert causes and causes[0].name == "loss-mismatch", [(c.name, c.message) for c in causes]
    assert "sums to 1" in causes[0].message


def test_logits_are_not(tmp_path):
    assert "loss-mismatch" not in [c.name for c in _train(tmp_path, softmax=False)]
