"""An optimizer built anew over the same tensors (a ``@property`` that returns a new Adam,
stepped as ``model.optimizer.step()``: eat_pytorch_in_20_days 3-2; one rebuilt per epoch)
continues the record of the one before it: one index, one set of series, a count in the meta
``optimizer_rebuilt``. Before, each was described, searched for schedulers (gc.get_referrers)
and compared with every earlier one: 400 steps took 33 s instead of 2.5 s, and the cost grew
with every step."""

import torch
from torch import nn

import traindoc


class _Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, x):
        return self.f(x)

    @property
    def optimizer(self):  # the tutorial's bug: a fresh Adam (state reset) at every access
        return torch.optim.Adam(self.parameters(), lr=1e-2)


def _fit(steps):
    torch.manual_seed(0)
    net = _Net()
    x = torch.randn(256, 2)
    y = (x.norm(dim=1, keepdim=True) < 1).float()
    for i in range(steps):
        b = slice((i * 16) % 256, (i * 16) % 256 + 16)
        nn.functional.binary_cross_entropy_with_logits(net(x[b]), y[b]).backward()
        net.optimizer.step()
        net.optimizer.zero_grad()
    return net


def test_an_optimizer_rebuilt_every_step_is_one_record_and_counted(tmp_path):
    plain = _fit(120)
    with traindoc.watch(out=tmp_path / "r", sample_every=1):
        watched = _fit(120)
    for a, b in zip(plain.parameters(), watched.parameters()):
        assert torch.equal(a, b)  # the monitor changed nothing
    run = traindoc.open_run(tmp_path / "r")
    assert [k for k in run.meta if k.startswith("optimizer/")] == ["optimizer/0"]
    assert run.meta["optimizer_rebuilt"]["0"]["rebuilds"] == 119
    assert len(run.series("loss")) == 120
    assert not [n for n in run.names() if n.startswith("lr/") and n != "lr/0/0"]


def test_a_freed_per_epoch_optimizer_keeps_its_index_and_a_live_second_one_gets_its_own(tmp_path):
    torch.manual_seed(0)
    net = _Net()
    x, y = torch.randn(64, 2), torch.rand(64, 1)
    with traindoc.watch(out=tmp_path / "r", sample_every=1):
        for epoch in range(3):  # rebuilt per epoch to lower the rate, the old one freed
            opt = torch.optim.SGD(net.parameters(), lr=0.1 * 0.5 ** epoch)
            for _ in range(10):
                opt.zero_grad()
                nn.functional.mse_loss(net(x), y).backward()
                opt.step()
        other = _Net()
        keep = [torch.optim.SGD(other.parameters(), lr=0.1), torch.optim.SGD(other.parameters(), lr=0.1)]
        for o in keep:  # two alive at once over the same tensors: two records, as before
            for _ in range(3):
                o.zero_grad()
                nn.functional.mse_loss(other(x), y).backward()
                o.step()
    run = traindoc.open_run(tmp_path / "r")
    assert run.meta["optimizer_rebuilt"]["0"]["rebuilds"] == 2
    lr = run.series("lr/0/0")
    assert sorted(set(lr.values.round(4).tolist())) == [0.025, 0.05, 0.1]
    assert {"optimizer/0", "optimizer/1", "optimizer/2"} <= set(run.meta)
