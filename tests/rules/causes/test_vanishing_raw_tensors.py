"""vanishing-gradient in a network of raw tensors trained by hand (no module, no optimizer;
bench/real 243, from a from-scratch MLP's "use He init" fix): eight ReLU layers initialised
U(-0.05, 0.05) pass back a gradient ~1e3x smaller per weight at the first layer than at the
last, before the last layer dies and every gradient is zero. He init does not get it."""

import math

import torch
import torch.nn.functional as F

import traindoc


def _train(tmp_path, he: bool):
    g = torch.Generator().manual_seed(0)
    X = torch.randn(1200, 32, generator=g)
    y = (X[:, :10].argmax(1)).long()
    torch.manual_seed(0)
    sizes = [32] + [48] * 8 + [10]
    params = []
    for a, b in zip(sizes, sizes[1:]):
        w = torch.randn(a, b) * math.sqrt(2 / a) if he else torch.empty(a, b).uniform_(-0.05, 0.05)
        params += [w.requires_grad_(), torch.zeros(b, requires_grad=True)]
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(3):
            for idx in torch.randperm(len(X), generator=g).split(32):
                h = X[idx]
                for i in range(0, len(params) - 2, 2):
                    h = torch.relu(h @ params[i] + params[i + 1])
                loss = F.cross_entropy(h @ params[-2] + params[-1], y[idx])
                loss.backward()
                with torch.no_grad():
                    for p in params:
                        p -= 0.1 * p.grad
                        p.grad = None
    return {c.name: c for c in traindoc.diagnose(tmp_path / "r").causes}


def test_tiny_uniform_init_of_a_deep_raw_tensor_mlp(tmp_path):
    c = _train(tmp_path, he=False)
    assert "vanishing-gradient" in c and "graph.param0" in c["vanishing-gradient"].message


def test_he_init_does_not(tmp_path):
    assert "vanishing-gradient" not in _train(tmp_path, he=True)
