"""params-not-updated when the gradient arrives and is exactly zero (bench/real 245,
dfdx#748: a float16 mean whose element count, 73 728, is inf in float16, so the loss is
x / inf and every gradient 0): the parameters are in the graph and the optimizer; the
cause is the float16 overflow, and params-not-updated is only a warning that says so
(parameters cut off from the graph keep the error: test_causes.py)."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _train(tmp_path):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 288))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = torch.randn(256, 16), torch.randn(256, 288).half()  # a float16 target: the loss stays float16
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(40):
            with torch.autocast("cpu", dtype=torch.float16):
                out = model(x)
                sq = (out - y) ** 2
                loss = sq.sum() / torch.tensor(sq.numel(), dtype=sq.dtype)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "params-not-updated"]


def test_float16_mean_with_an_inf_denominator(tmp_path):
    (c,) = _train(tmp_path)
    assert c.severity == "warning" and "exactly 0 on every sampled step" in c.message and "float16" in c.message


def test_a_gradient_too_small_to_move_the_weights_defers_to_vanishing_gradient(tmp_path):
    """SGD on a gradient that reaches the first layer non-zero but ~1e-12: lr * g is below
    the float32 spacing of the weights, the update is exactly 0 (bench/real 278, a deep
    sigmoid stack). The gradient vanished: params-not-updated is a low warning that says so
    and ranks below vanishing-gradient."""
    torch.manual_seed(0)
    layers = [nn.Linear(16, 64), nn.Sigmoid()]
    for _ in range(10):
        layers += [nn.Linear(64, 64), nn.Sigmoid()]
    model = nn.Sequential(*layers, nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(128, 16), torch.randn(128, 1)
    with traindoc.watch(out=tmp_path / "r", replay=False, sample_every=2):
        for _ in range(40):
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    causes = traindoc.diagnose(tmp_path / "r").causes
    (c,) = [c for c in causes if c.name == "params-not-updated"]
    assert c.severity == "warning" and c.confidence <= 0.2 and "non-zero, but at most" in c.message
    names = [k.name for k in causes]
    assert "vanishing-gradient" in names and names.index("vanishing-gradient") < names.index("params-not-updated")


def test_raw_tensor_weights_left_at_zero(tmp_path):
    # bench/real 294 (mistnet): weight tensors allocated as zeros and updated by hand; the
    # hidden units are all tanh(0) = 0, so neither weight matrix ever gets a gradient and
    # only the output bias moves. The monitor reads raw tensors' norms on sampled steps.

    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(600, 12, generator=g), (torch.rand(600, 5, generator=g) < 0.3).float()

    def train(out, zero: bool):
        w1 = (torch.zeros(12, 16) if zero else torch.randn(12, 16, generator=g) / 12 ** 0.5).requires_grad_()
        w2 = (torch.zeros(16, 5) if zero else torch.randn(16, 5, generator=g) / 4).requires_grad_()
        b1, b2 = torch.zeros(16, requires_grad=True), torch.zeros(5, requires_grad=True)
        with traindoc.watch(out=out, replay=False):
            for _ in range(120):
                loss = F.binary_cross_entropy_with_logits(torch.tanh(x @ w1 + b1) @ w2 + b2, y)
                loss.backward()
                with torch.no_grad():
                    for p in (w1, b1, w2, b2):
                        p -= 0.5 * p.grad
                        p.grad.zero_()
        return {c.name: c for c in traindoc.diagnose(out).causes}

    zero = train(tmp_path / "zero", True)
    assert "bad-init" in zero and "start at exactly 0" in zero["bad-init"].message
    assert "bad-init" not in train(tmp_path / "random", False)


def test_raw_tensor_weights_at_zero_that_then_move_in_lockstep(tmp_path):
    # bench/real 357: the same zeros behind a sigmoid (0.5, not 0): the output weights move
    # from the first step, every hidden unit identically, so symmetry never breaks; read at
    # the first backward, before any update. One zero matrix next to a random one is fine.
    g = torch.Generator().manual_seed(1)
    x, y = torch.rand(500, 20, generator=g), torch.randint(0, 4, (500,), generator=g)

    def train(out, zero_first: bool):
        w1 = (torch.zeros(20, 32) if zero_first else torch.randn(20, 32, generator=g) * 0.2).requires_grad_()
        w2 = torch.zeros(32, 4).requires_grad_()
        b1, b2 = torch.zeros(32, requires_grad=True), torch.zeros(4, requires_grad=True)
        with traindoc.watch(out=out, replay=False):
            for s in range(100):
                i = torch.randint(0, 500, (50,), generator=torch.Generator().manual_seed(s))
                loss = F.cross_entropy(torch.sigmoid(x[i] @ w1 + b1) @ w2 + b2, y[i])
                for p in (w1, b1, w2, b2):
                    p.grad = None
                loss.backward()
                with torch.no_grad():
                    for p in (w1, b1, w2, b2):
                        p -= 0.5 * p.grad
        return {c.name: c for c in traindoc.diagnose(out).causes}

    both = train(tmp_path / "both", True)
    assert "bad-init" in both and "identical copies" in both["bad-init"].message
    assert "bad-init" not in train(tmp_path / "head_only", False)  # a zero head behind random weights
