"""A float64 model whose cell runs per time step (pytorch/examples'
time_sequence_prediction: LSTMCells in double precision under LBFGS): every series the
monitor takes, the per-call gradient norms included, works without a monitor error."""

import torch
from torch import nn

import traindoc


class Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(1, 8)
        self.out = nn.Linear(8, 1)

    def forward(self, x):
        h = c = torch.zeros(x.size(0), 8, dtype=torch.double)
        ys = []
        for t in x.split(1, dim=1):
            h, c = self.cell(t, (h, c))
            ys.append(self.out(h))
        return torch.cat(ys, 1)


def test_a_double_precision_recurrent_model_under_lbfgs(tmp_path):
    torch.manual_seed(0)
    x = torch.sin(torch.linspace(0, 20, 41, dtype=torch.double)).repeat(6, 1)
    model = Seq().double()
    opt = torch.optim.LBFGS(model.parameters(), lr=0.5)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(3):
            def closure():
                opt.zero_grad()
                loss = nn.functional.mse_loss(model(x[:, :-1]), x[:, 1:])
                loss.backward()
                return loss
            opt.step(closure)
    run = traindoc.open_run(tmp_path / "r")
    assert not [e["message"] for e in run.events() if e["kind"] == "monitor-error"]
    assert run.matching("time_grad/")
