"""An optimizer built from a frozen encoder's parameters while the only trainable layer,
a classifier owned by the loss object (sentence-transformers' SoftmaxLoss), is never
handed to it: the optimizer holds 0 of the trainable values."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


class PairLoss(nn.Module):
    def __init__(self, encoder, dim, classes):
        super().__init__()
        self.encoder = encoder
        self.classifier = nn.Linear(3 * dim, classes)

    def forward(self, a, b, y):
        u, v = self.encoder(a), self.encoder(b)
        return F.cross_entropy(self.classifier(torch.cat([u, v, (u - v).abs()], 1)), y)


def _train(out, give_head: bool):
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(20, 16), nn.Tanh())
    for p in encoder.parameters():
        p.requires_grad_(False)
    loss_fn = PairLoss(encoder, 16, 3)
    params = loss_fn.parameters() if give_head else encoder.parameters()
    opt = torch.optim.AdamW(params, lr=5e-3)
    A, B = torch.randn(2000, 20, generator=g), torch.randn(2000, 20, generator=g)
    Y = ((A - B)[:, :3].argmax(1))
    with traindoc.watch(out=out, replay=False):
        for i in range(0, 2000 * 3, 50):
            j = torch.arange(i, i + 50) % 2000
            loss = loss_fn(A[j], B[j], Y[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(out).causes


def test_an_optimizer_of_frozen_tensors_only(tmp_path):
    causes = _train(tmp_path / "r", give_head=False)
    c = causes[0]
    assert c.name == "params-not-updated" and c.severity == "error", [(x.name, x.severity) for x in causes]
    assert "holds 0 of" in c.message and "classifier" in c.message


def test_the_head_handed_over_is_fine(tmp_path):
    causes = _train(tmp_path / "r", give_head=True)
    assert not any(c.name == "params-not-updated" for c in causes)
