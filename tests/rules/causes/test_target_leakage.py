"""target-leakage: the loss's target is one of the model's inputs (y = x, the label among
the features); a shifted target, an autoencoder's float target and a causal LM that shifts
inside the model (Hugging Face) are not."""

import torch
from torch import nn

import traindoc


def lm(tmp_path, shift: int, steps=40):
    torch.manual_seed(0)
    text = torch.randint(0, 30, (5000,))
    model = nn.Sequential(nn.Embedding(30, 16), nn.Linear(16, 30))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(steps):
            i = torch.randint(0, 4900, (16,)).tolist()
            x = torch.stack([text[j:j + 12] for j in i])
            y = torch.stack([text[j + shift:j + shift + 12] for j in i])
            loss = nn.functional.cross_entropy(model(x).view(-1, 30), y.view(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(tmp_path / "r")


def names(d):
    return [c.name for c in d.causes]


def test_unshifted_next_token_target_is_a_leak(tmp_path):
    d = lm(tmp_path, shift=0, steps=150)
    assert names(d)[0] == "target-leakage" and d.causes[0].severity == "error"
    assert "y = x" in d.causes[0].message
    assert "loss-implausible" in [s.name for s in d.symptoms]


def test_shifted_target_is_not(tmp_path):
    assert "target-leakage" not in names(lm(tmp_path, shift=1))


def test_label_column_among_the_features(tmp_path):
    torch.manual_seed(0)
    X = torch.randn(512, 6)
    y = (X[:, 0] > 0).float()
    X[:, 3] = y  # the label left in the table
    model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(30):
            i = torch.randint(0, 512, (64,))
            loss = nn.functional.binary_cross_entropy_with_logits(model(X[i]).squeeze(1), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    d = traindoc.diagnose(tmp_path / "r")
    leak = [c for c in d.causes if c.name == "target-leakage"]
    assert leak and "column 3" in leak[0].message


def _table_run(tmp_path, X, y, steps=30):
    model = nn.Sequential(nn.Linear(X.shape[1], 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(steps):
            i = torch.randint(0, len(X), (64,))
            loss = nn.functional.binary_cross_entropy_with_logits(model(X[i]).squeeze(1), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(tmp_path / "r")


def test_label_column_standardised_with_the_features(tmp_path):
    # the label written into the table, then the whole table standardised (SPORF's banknote demo)
    torch.manual_seed(0)
    X = torch.randn(512, 5) * 3 + 1
    y = (X[:, 0] + torch.randn(512) > 1).float()
    X[:, 4] = y
    X = (X - X.mean(0)) / X.std(0)
    leak = [c for c in _table_run(tmp_path / "a", X, y).causes if c.name == "target-leakage"]
    assert leak and "column 4" in leak[0].message and "rescaled" in leak[0].message
    # a noisy copy (|r| 0.99): a column computed from the label, or an honest feature that
    # strong: a warning (a lead), not an error, while the loss has not collapsed
    X[:, 4] = (y + 0.05 * torch.randn(512) - 0.5) * 2
    near = [c for c in _table_run(tmp_path / "b", X, y).causes if c.name == "target-leakage"]
    assert near and "nearly column 4" in near[0].message and near[0].severity == "warning"


def test_autoencoder_float_target_is_not(tmp_path):
    torch.manual_seed(0)
    X = torch.randn(256, 8)
    model = nn.Sequential(nn.Linear(8, 3), nn.Linear(3, 8))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(30):
            xb = X[torch.randint(0, 256, (32,))]
            loss = nn.functional.mse_loss(model(xb), xb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    assert "target-leakage" not in names(traindoc.diagnose(tmp_path / "r"))


def test_hugging_face_causal_lm_shifting_inside_is_not(tmp_path):
    transformers = __import__("pytest").importorskip("transformers")
    cfg = transformers.GPT2Config(vocab_size=50, n_positions=32, n_embd=16, n_layer=1, n_head=2)
    torch.manual_seed(0)
    model = transformers.GPT2LMHeadModel(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(5):
            ids = torch.randint(0, 50, (4, 16))
            loss = model(input_ids=ids, labels=ids).loss  # labels = input_ids: the model shifts them
            opt.zero_grad()
            loss.backward()
            opt.step()
    assert "target-leakage" not in names(traindoc.diagnose(tmp_path / "r"))


class _LossInside(nn.Module):
    """nanoGPT's GPT and Hugging Face heads: the target is an argument of forward, which
    computes the loss itself (``model(X, Y)``, ``model(input_ids=..., labels=...)``)."""

    def __init__(self):
        super().__init__()
        self.emb, self.head = nn.Embedding(30, 16), nn.Linear(16, 30)

    def forward(self, idx, targets=None, labels=None):
        logits = self.head(self.emb(idx))
        t = targets if targets is not None else labels
        return nn.functional.cross_entropy(logits.view(-1, 30), t.reshape(-1))


def loss_inside(tmp_path, same: bool, kw: bool = False, steps=30):
    torch.manual_seed(0)
    text = torch.randint(0, 30, (5000,))
    model = _LossInside()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(steps):
            i = torch.randint(0, 4900, (16,)).tolist()
            x = torch.stack([text[j:j + 12] for j in i])
            y = x if same else torch.stack([text[j + 1:j + 13] for j in i])
            loss = model(x, labels=y) if kw else model(x, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(tmp_path / "r")


def test_a_target_passed_to_the_model_that_computes_the_loss_is_not_a_leak(tmp_path):
    assert "target-leakage" not in names(loss_inside(tmp_path / "a", same=False))
    assert "target-leakage" not in names(loss_inside(tmp_path / "b", same=False, kw=True))


def test_the_same_tensor_passed_as_input_and_target_is_a_leak(tmp_path):
    d = loss_inside(tmp_path, same=True)  # nanoGPT with y = x
    assert names(d)[0] == "target-leakage" and "argument 0" in d.causes[0].message


class _OneArg(_LossInside):
    def forward(self, idx):  # computes its loss on its own input: forgot to shift
        return super().forward(idx, targets=idx)


def test_a_model_that_computes_its_loss_on_its_only_input_is_a_leak(tmp_path):
    torch.manual_seed(0)
    text = torch.randint(0, 30, (5000,))
    model = _OneArg()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(25):
            i = torch.randint(0, 4900, (16,)).tolist()
            loss = model(torch.stack([text[j:j + 12] for j in i]))
            opt.zero_grad()
            loss.backward()
            opt.step()
    d = traindoc.diagnose(tmp_path / "r")
    assert "target-leakage" in names(d)


def test_an_autoencoder_given_its_input_twice_is_not_a_leak(tmp_path):
    torch.manual_seed(0)
    ae = nn.Sequential(nn.Linear(16, 4), nn.ReLU(), nn.Linear(4, 16))

    class AE(nn.Module):
        def __init__(self):
            super().__init__()
            self.ae = ae

        def forward(self, x, target):
            return nn.functional.mse_loss(self.ae(x), target)

    model = AE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(25):
            x = torch.randn(32, 16)
            loss = model(x, x)
            opt.zero_grad()
            loss.backward()
            opt.step()
    assert "target-leakage" not in names(traindoc.diagnose(tmp_path / "r"))


def test_a_loss_per_time_step_on_token_columns_is_not_a_leak(tmp_path):
    # char-rnn's criterion applied per time step: the target of step t is column t+1 of
    # the integer token input, which a causal model cannot see at step t
    torch.manual_seed(0)
    text = torch.randint(0, 20, (4000,))

    class CharRNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb, self.rnn, self.head = nn.Embedding(20, 16), nn.LSTM(16, 16, batch_first=True), nn.Linear(16, 20)

        def forward(self, x):
            return self.head(self.rnn(self.emb(x))[0])

    model = CharRNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(30):
            i = torch.randint(0, 3900, (16,)).tolist()
            x = torch.stack([text[j:j + 24] for j in i])
            y = torch.stack([text[j + 1:j + 25] for j in i])
            logits = model(x)
            loss = sum(nn.functional.cross_entropy(logits[:, t], y[:, t]) for t in range(24)) / 24
            opt.zero_grad()
            loss.backward()
            opt.step()
    assert "target-leakage" not in names(traindoc.diagnose(tmp_path / "r"))


def test_a_sequence_whose_target_is_a_feature_at_the_same_step_is_a_leak(tmp_path):
    # a forecaster fed y_t (not y_{t-1}) as an input feature at step t
    torch.manual_seed(0)
    series = torch.cumsum(torch.randn(64, 41), 1) * 0.1

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn, self.head = nn.GRU(2, 16, batch_first=True), nn.Linear(16, 1)

        def forward(self, x):
            return self.head(self.rnn(x)[0]).squeeze(-1)

    for lag, leak in ((0, True), (1, False)):
        model = Net()
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        out = tmp_path / f"r{lag}"
        with traindoc.watch(out=out, replay=False):
            for _ in range(30):
                y = series[:, 1:]
                x = torch.stack([series[:, 1 - lag:41 - lag], torch.ones_like(y)], -1)
                loss = nn.functional.mse_loss(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
        found = [c for c in traindoc.diagnose(out).causes if c.name == "target-leakage"]
        assert bool(found) == leak, lag
        if leak:
            assert "feature 0" in found[0].message and "same time step" in found[0].message


def test_loss_unbounded_below_is_implausible(tmp_path):
    # 200 of bench/real: a reconstruction loss divided per feature by a "variance" that a
    # constant column made negative: the optimizer lowers it without bound
    torch.manual_seed(0)
    X = torch.randn(256, 4)
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(60):
            out = model(X)
            loss = nn.functional.mse_loss(out[:, 0], X[:, 0]) + nn.functional.mse_loss(out[:, 1], X[:, 1] * 0 - 0.4) / -0.4
            opt.zero_grad()
            loss.backward()
            opt.step()
    d = traindoc.diagnose(tmp_path / "r")
    imp = [s for s in d.symptoms if s.name == "loss-implausible"]
    assert imp and "below zero" in imp[0].message, [s.name for s in d.symptoms]


def _masked(tmp_path, shift: int):
    # minGPT's adder: the prompt positions of the target are -1 (ignored by the loss), the
    # rest is the sequence shifted by one; not shifted, the answer digits are the input's own
    torch.manual_seed(0)
    model = nn.Sequential(nn.Embedding(10, 16), nn.Linear(16, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(30):
            seq = torch.randint(0, 10, (32, 7))
            x, y = seq[:, :-1], seq[:, shift:shift + 6].clone()
            y[:, :3] = -1
            loss = nn.functional.cross_entropy(model(x).view(-1, 10), y.reshape(-1), ignore_index=-1)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return [e for e in traindoc.open_run(tmp_path / "r").events() if e["kind"] == "target-in-input"]


def test_an_unshifted_target_with_ignored_positions_is_a_leak(tmp_path):
    assert _masked(tmp_path / "a", shift=0)
    assert not _masked(tmp_path / "b", shift=1)
