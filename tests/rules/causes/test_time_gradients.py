"""vanishing-gradient through time: a recurrent cell written out step by step (a Python loop
calls its layers once per time step) whose first calls receive a billionth of the gradient
of its last, so that the first tokens, which alone decide the label, are never learnt
(bench/real 349: zero forget-gate bias). The monitor's ``time_grad/<module>`` series and the
rule; the same cell reading a label from the last token learns, and gets nothing."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc

H, V, T = 16, 6, 40


class Cell(nn.Module):
    def __init__(self):
        super().__init__()
        self.x2g = nn.Linear(V, 4 * H)
        self.h2g = nn.Linear(H, 4 * H, bias=False)
        self.head = nn.Linear(H, 3)
        with torch.no_grad():
            self.x2g.bias.zero_()

    def forward(self, x):
        h = x.new_zeros(x.shape[0], H)
        c = h
        for t in range(x.shape[1]):
            i, f, g, o = (self.x2g(x[:, t]) + self.h2g(h)).chunk(4, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return self.head(h)


def _run(tmp_path, at: int):
    g = torch.Generator().manual_seed(0)
    tokens = torch.randint(3, V, (512, T), generator=g)
    y = torch.randint(0, 3, (512,), generator=g)
    tokens[:, at] = y  # the label's token: first (a long dependency) or last (none)
    x = F.one_hot(tokens, V).float()
    torch.manual_seed(0)
    model = Cell()
    opt = torch.optim.Adam(model.parameters(), 3e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for epoch in range(6):
            for i in range(0, 512, 32):
                loss = F.cross_entropy(model(x[i:i + 32]), y[i:i + 32])
                opt.zero_grad()
                loss.backward()
                opt.step()
    return tmp_path / "r"


def test_a_recurrence_whose_first_steps_get_no_gradient(tmp_path):
    r = _run(tmp_path, at=0)
    ratio = traindoc.open_run(r).series("time_grad/x2g").values
    assert ratio.size >= 3 and ratio[-1] > 1e3, ratio
    causes = traindoc.diagnose(r).causes
    assert causes and causes[0].name == "vanishing-gradient", [(c.name, c.message) for c in causes]
    assert "repeated calls of x2g" in causes[0].message


def test_the_same_cell_with_the_answer_at_the_last_step_is_not(tmp_path):
    # (its first calls may still get little gradient: they carry nothing to learn; the loss
    # that falls is what keeps the finding away)
    r = _run(tmp_path, at=T - 1)
    assert "vanishing-gradient" not in [c.name for c in traindoc.diagnose(r).causes]
