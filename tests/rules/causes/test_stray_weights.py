"""params-not-updated from the autograd graph: weights made with requires_grad=True instead
of nn.Parameter (kept in a Python list, bench/real 409) get the loss's gradient on every step
and no optimizer holds them; a full-batch input that asks for its gradient, and a network of
raw tensors updated by hand (no optimizer), are not such weights."""

import torch
from torch import nn

import traindoc
from traindoc.store.reader import open_run


class ListWeights(nn.Module):
    def __init__(self, plain: bool):
        super().__init__()
        make = (lambda t: t.requires_grad_()) if plain else nn.Parameter
        self.inner = [make(torch.randn(8, 8) / 8 ** 0.5) for _ in range(2)]
        if not plain:
            self.inner = nn.ParameterList(self.inner)
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        for w in self.inner:
            x = torch.relu(x @ w)
        return self.head(x)


def _fit(folder, model, X, y, steps=40, bs=16, opt=True):
    o = torch.optim.Adam(model.parameters(), lr=1e-2) if opt else None
    with traindoc.watch(out=folder, replay=False):
        for s in range(steps):
            i = torch.arange(len(X)) if bs is None else torch.randint(0, len(X), (bs,))
            loss = ((model(X[i]).squeeze(-1) - y[i]) ** 2).mean()
            if o is not None:
                o.zero_grad()
            loss.backward()
            if o is not None:
                o.step()
            else:
                with torch.no_grad():
                    for p in model:
                        p -= 0.01 * p.grad
                        p.grad = None
    return folder


def _data(n=256):
    g = torch.Generator().manual_seed(0)
    X = torch.randn(n, 8, generator=g)
    return X, X[:, :3].sum(1)


def test_weights_kept_as_plain_tensors_are_found_and_parameters_are_not(tmp_path):
    torch.manual_seed(0)
    X, y = _data()
    run = _fit(tmp_path / "plain", ListWeights(plain=True), X, y)
    stray = open_run(run).meta.get("stray_leaves")
    assert stray and stray["tensors"] == 2 and stray["values"] == 128
    top = traindoc.diagnose(run).causes[0]
    assert top.name == "params-not-updated" and "requires_grad=True instead of nn.Parameter" in top.message
    run = _fit(tmp_path / "param", ListWeights(plain=False), X, y)
    assert open_run(run).meta.get("stray_leaves") is None
    assert "params-not-updated" not in [c.name for c in traindoc.diagnose(run).causes]


def test_a_full_batch_input_that_asks_for_its_gradient_is_not_a_weight(tmp_path):
    torch.manual_seed(0)
    X, y = _data()
    X.requires_grad_()  # the same input tensor every step, a leaf of every backward
    for bs in (None, 16):  # the whole of it each step, or minibatches sliced from it
        run = _fit(tmp_path / f"x{bs}", nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1)), X, y, bs=bs)
        assert open_run(run).meta.get("stray_leaves") is None
        assert "params-not-updated" not in [c.name for c in traindoc.diagnose(run).causes]


def test_raw_tensors_updated_by_hand_have_no_optimizer_to_miss_them(tmp_path):
    torch.manual_seed(0)
    X, y = _data()
    ws = [(torch.randn(8, 8) / 8 ** 0.5).requires_grad_(), (torch.randn(8, 1) / 8 ** 0.5).requires_grad_()]

    class Raw(list):
        def __call__(self, x):
            return torch.relu(x @ self[0]) @ self[1]

    run = _fit(tmp_path / "raw", Raw(ws), X, y, opt=False)
    assert open_run(run).meta.get("stray_leaves") is None


def test_a_gan_whose_second_optimizer_steps_later_holds_no_stray_weights(tmp_path):
    # the generator's loss reaches the discriminator's weights too, and the discriminator's
    # optimizer steps only after the generator's: until then they look stray
    torch.manual_seed(0)
    G, D = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8)), nn.Sequential(nn.Linear(8, 1))
    og, od = torch.optim.Adam(G.parameters(), lr=1e-3), torch.optim.Adam(D.parameters(), lr=1e-3)
    real = torch.randn(256, 8)
    with traindoc.watch(out=tmp_path / "gan", replay=False):
        for _ in range(20):
            fake = G(torch.randn(32, 4))
            g_loss = nn.functional.softplus(-D(fake)).mean()
            og.zero_grad()
            g_loss.backward()
            og.step()
            d_loss = nn.functional.softplus(-D(real[:32])).mean() + nn.functional.softplus(D(fake.detach())).mean()
            od.zero_grad()
            d_loss.backward()
            od.step()
    stray = open_run(tmp_path / "gan").meta.get("stray_leaves")
    assert stray is None or stray["tensors"] == 0
    assert "params-not-updated" not in [c.name for c in traindoc.diagnose(tmp_path / "gan").causes]
