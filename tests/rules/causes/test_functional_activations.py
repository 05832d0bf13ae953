"""Activations written as functions (no nn.Sigmoid/nn.ReLU module for the forward hooks):
read from the loss's autograd graph at the backward (``_saved_result`` of their backward
nodes), numbered from the input, the output one marked; saturated-activation and dead-relu
then see them as they see modules'."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc
from traindoc.monitor.graph_acts import functional_activations
from traindoc.store.reader import open_run


def test_the_walk_finds_them_input_first_and_marks_the_output():
    x = torch.randn(64, 20)
    w1 = torch.randn(20, 16, requires_grad=True)
    w2 = torch.randn(16, 4, requires_grad=True)
    h = torch.relu(torch.tanh(x @ w1) @ torch.randn(16, 16))
    out = torch.sigmoid(h @ w2)
    got = functional_activations(((out - 1) ** 2).mean())
    assert [n for n, _, _ in got] == ["tanh#1", "relu#1", "sigmoid#1 (output)"]
    assert [s for _, s, _ in got] == ["saturated", "dead", "saturated"]
    assert float(got[0][2]) > 0.3  # x @ w1 with N(0, 1) weights over 20 inputs: |tanh| > 0.99 often
    no_graph = torch.randn(3, requires_grad=True).sum()
    assert functional_activations(no_graph) == []


def _raw_net(tmp_path, scale: float, steps=40):
    torch.manual_seed(0)
    X = torch.rand(256, 100)
    y = (X[:, :50].sum(1) > X[:, 50:].sum(1)).float()
    W1 = (torch.randn(100, 32) * scale).requires_grad_()
    W2 = (torch.randn(32, 1) * 0.1).requires_grad_()
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(steps):
            p = torch.sigmoid(torch.sigmoid(X @ W1) @ W2).squeeze(1)
            loss = ((p - y) ** 2).mean()
            for w in (W1, W2):
                w.grad = None
            loss.backward()
            with torch.no_grad():
                for w in (W1, W2):
                    w -= 0.5 * w.grad
    return tmp_path / "r"


def test_a_raw_tensor_sigmoid_net_with_a_huge_init_is_saturated(tmp_path):
    folder = _raw_net(tmp_path, scale=10.0)
    names = set(open_run(folder).names())
    d = traindoc.diagnose(folder)
    assert d.causes and d.causes[0].name == "saturated-activation" and "sigmoid#1" in d.causes[0].message
    assert "act/sigmoid#1/saturated" in names


def test_the_same_net_scaled_by_its_fan_in_is_not(tmp_path):
    d = traindoc.diagnose(_raw_net(tmp_path, scale=0.1))
    assert all(c.name != "saturated-activation" for c in d.causes)


class _Functional(nn.Module):
    def __init__(self, bias: float):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(10, 64), nn.Linear(64, 3)
        nn.init.constant_(self.fc1.bias, bias)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def test_functional_relu_in_a_module_forward_reports_dead_units(tmp_path):
    for bias, dead in ((-50.0, True), (0.0, False)):
        torch.manual_seed(0)
        model = _Functional(bias)
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        X, y = torch.randn(512, 10), torch.randint(0, 3, (512,))
        out = tmp_path / f"r{bias}"
        with traindoc.watch(out=out, replay=False):
            for s in range(60):
                i = torch.arange(s * 64, s * 64 + 64) % 512
                loss = F.cross_entropy(model(X[i]), y[i])
                opt.zero_grad()
                loss.backward()
                opt.step()
        names = [c.name for c in traindoc.diagnose(out).causes]
        assert ("dead-relu" in names) is dead, (bias, names)


def test_a_recurrent_cells_gates_are_not_read_as_saturation(tmp_path):
    # a GRUCell's graph holds its gates' sigmoids and tanhs: they open and close by design
    torch.manual_seed(0)
    cell, head = nn.GRUCell(8, 16), nn.Linear(16, 3)
    model = nn.ModuleDict({"cell": cell, "head": head})
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(30):
            x = torch.randn(32, 8) * 20  # gates pinned at 0/1
            loss = F.cross_entropy(head(cell(x)), torch.randint(0, 3, (32,)))
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    assert not any(e.startswith("act/") and "#" in e and e.endswith("/saturated")
                   for e in run.names())
