"""loss-reduction from a loss summed over many loss-function calls (char-rnn's criterion per
time step, added up and never divided), recorded by the real monitor: named first under
plain SGD when the run fails; the averaged twin and Adam stay quiet."""

import pytest
import torch
from torch import nn

import traindoc


class CharRNN(nn.Module):
    def __init__(self, v=20, h=32):
        super().__init__()
        self.emb, self.rnn, self.head = nn.Embedding(v, h), nn.LSTM(h, h, batch_first=True), nn.Linear(h, v)

    def forward(self, x):
        return self.head(self.rnn(self.emb(x))[0])


def run(tmp_path, divide: bool, opt="sgd", lr=1.0, steps=60, T=40):
    torch.manual_seed(0)
    text = (torch.arange(6000) * 7 % 20 + torch.randint(0, 2, (6000,))) % 20  # a learnable sequence
    model = CharRNN()
    o = (torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9) if opt == "sgd"
         else torch.optim.Adam(model.parameters(), lr=lr))
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(steps):
            i = torch.randint(0, 5900, (16,)).tolist()
            x = torch.stack([text[j:j + T] for j in i])
            y = torch.stack([text[j + 1:j + T + 1] for j in i])
            logits = model(x)
            loss = 0
            for t in range(T):
                loss = loss + nn.functional.cross_entropy(logits[:, t], y[:, t])
            if divide:
                loss = loss / T
            o.zero_grad()
            loss.backward()
            o.step()
    return traindoc.diagnose(tmp_path / "r")


def test_a_loss_summed_over_time_steps_under_sgd_is_named_first(tmp_path):
    d = run(tmp_path, divide=False)
    assert d.causes and d.causes[0].name == "loss-reduction", [(c.name, c.confidence) for c in d.causes]
    assert "sum of 40 loss-function values" in d.causes[0].message


@pytest.mark.parametrize("kw", [{"divide": True}, {"divide": False, "opt": "adam", "lr": 3e-3},
                                {"divide": False, "lr": 0.01}])
def test_averaged_under_adam_or_at_a_rate_tuned_for_the_sum_is_not(tmp_path, kw):
    d = run(tmp_path, **kw)
    assert "loss-reduction" not in [c.name for c in d.causes]


def test_a_loss_made_of_several_functions_is_no_sum_of_terms(tmp_path):
    # a detector-style loss: 3 scales x (box, objectness, class) = 9 calls of 3 functions
    torch.manual_seed(0)
    heads = nn.ModuleList(nn.Linear(8, 6) for _ in range(3))
    opt = torch.optim.SGD(heads.parameters(), lr=0.5)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(40):
            x, y = torch.randn(16, 8), torch.randn(16, 6)
            loss = 0
            for h in heads:
                out = h(x)
                loss = loss + nn.functional.mse_loss(out[:, :4], y[:, :4]) \
                    + nn.functional.binary_cross_entropy_with_logits(out[:, 4], (y[:, 4] > 0).float()) \
                    + nn.functional.l1_loss(out[:, 5], y[:, 5])
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    assert not run.has("loss/terms")
    assert not any("loss-function values" in c.message for c in traindoc.diagnose(tmp_path / "r").causes)
