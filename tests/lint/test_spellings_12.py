"""Spellings added in the thirteenth pass (December 2026, from the misses of the eighteenth
recall corpus, read after the nineteenth was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "train-mode-not-restored": [
        # the optimizer gets the model's parts (model.body.parameters()), the loop evals model
        """
        def fit(model, train_dl, val_dl, epochs):
            opt = torch.optim.Adam([{"params": model.body.parameters()}, {"params": model.head.parameters()}])
            model.train()
            for ep in range(epochs):
                for x, y in train_dl:
                    loss = F.cross_entropy(model(x), y)
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                model.eval()  # !
                with torch.no_grad():
                    for x, y in val_dl:
                        model(x)
        """,
        # near miss: train() at the top of every epoch
        """
        def fit(model, train_dl, val_dl, epochs):
            opt = torch.optim.Adam([{"params": model.body.parameters()}, {"params": model.head.parameters()}])
            for ep in range(epochs):
                model.train()
                for x, y in train_dl:
                    loss = F.cross_entropy(model(x), y)
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                model.eval()
                with torch.no_grad():
                    for x, y in val_dl:
                        model(x)
        """,
    ],
    "accumulation-not-averaged": [
        # the skip form: continue until the k-th micro-batch, then step
        """
        def epoch(net, dl, opt, crit, k):
            for i, (x, y) in enumerate(dl):
                loss = crit(net(x), y)
                loss.backward()  # !
                if (i + 1) % k != 0:
                    continue
                opt.step()
                opt.zero_grad()
        """,
        # near miss: the same skip with the loss divided
        """
        def epoch(net, dl, opt, crit, k):
            for i, (x, y) in enumerate(dl):
                loss = crit(net(x), y) / k
                loss.backward()
                if (i + 1) % k != 0:
                    continue
                opt.step()
                opt.zero_grad()
        """,
    ],
    "unguarded-zero": [
        # log of a magnitude spectrogram: 0 in digital silence
        """
        def feats(wav, win):
            spec = torch.stft(wav, n_fft=512, window=win, return_complex=True)
            return torch.log(spec.abs())  # !
        """,
        """
        def feats(wav):
            return wav.stft(256, return_complex=True).abs().log()  # !
        """,
        # near misses: an epsilon, and abs of something that is not a spectrum
        """
        def feats(wav, win):
            spec = torch.stft(wav, n_fft=512, window=win, return_complex=True)
            return torch.log(spec.abs() + 1e-6), torch.log(torch.abs(spec).clamp(min=1e-5)), torch.log(wav.abs())
        """,
    ],
    "running-loss-keeps-graph": [
        # a step method backpropagates the last of a list of losses and returns the list
        """
        class Runner:
            def __init__(self, net, opt):
                self.net, self.opt = net, opt
            def step(self, x, y):
                self.opt.zero_grad()
                parts = self.net(x, y)
                parts[-1].backward()
                self.opt.step()
                return parts
        def epoch(runner, dl):
            total = 0
            for x, y in dl:
                a, b, whole = runner.step(x, y)
                total += whole  # !
        """,
        # near miss: .item() of every part
        """
        class Runner:
            def __init__(self, net, opt):
                self.net, self.opt = net, opt
            def step(self, x, y):
                self.opt.zero_grad()
                parts = self.net(x, y)
                parts[-1].backward()
                self.opt.step()
                return parts
        def epoch(runner, dl):
            total = 0
            for x, y in dl:
                a, b, whole = runner.step(x, y)
                total += whole.item()
        """,
    ],
    "scheduler-before-optimizer": [
        # a model object's method that only steps the schedulers, at the top of each epoch
        """
        class Pair:
            def __init__(self, g, opt):
                self.g, self.opt = g, opt
                self.scheds = [torch.optim.lr_scheduler.StepLR(opt, 10)]
            def bump_lr(self):
                for sched in self.scheds:
                    sched.step()
            def fit_batch(self, x):
                self.opt.zero_grad()
                self.g(x).mean().backward()
                self.opt.step()
        def run(pair, data, epochs):
            for ep in range(epochs):
                pair.bump_lr()  # !
                for x in data:
                    pair.fit_batch(x)
        """,
        # near miss: the same method called after the epoch's batches
        """
        class Pair:
            def __init__(self, g, opt):
                self.g, self.opt = g, opt
                self.scheds = [torch.optim.lr_scheduler.StepLR(opt, 10)]
            def bump_lr(self):
                for sched in self.scheds:
                    sched.step()
            def fit_batch(self, x):
                self.opt.zero_grad()
                self.g(x).mean().backward()
                self.opt.step()
        def run(pair, data, epochs):
            for ep in range(epochs):
                for x in data:
                    pair.fit_batch(x)
                pair.bump_lr()
        """,
    ],
    "train-loader-not-shuffled": [
        # an augmented dataset, shuffle=False, handed to a training function of the file
        """
        def train(dl, net, opt):
            for x, y in dl:
                opt.zero_grad()
                F.cross_entropy(net(x), y).backward()
                opt.step()
        def main(net, opt, folder):
            ds = ImageFolder(folder, transform=T.Compose([T.RandomResizedCrop(224), T.ToTensor()]))
            dl = torch.utils.data.DataLoader(ds, batch_size=32, shuffle=False)  # !
            train(dl, net, opt)
        """,
        # near miss: the same loader only evaluated
        """
        def score(dl, net):
            with torch.no_grad():
                return sum(net(x).argmax(1).eq(y).sum().item() for x, y in dl)
        def main(net, folder):
            ds = ImageFolder(folder, transform=T.Compose([T.RandomResizedCrop(224), T.ToTensor()]))
            dl = torch.utils.data.DataLoader(ds, batch_size=32, shuffle=False)
            score(dl, net)
        """,
    ],
    "validation-in-train-mode": [
        # a feature extractor only evaluate() calls, looping without no_grad
        """
        def embed_all(net, dl):
            out = []
            for x, _ in dl:
                out.append(net(x).cpu())  # !
            return torch.cat(out)
        def evaluate(net, gallery_dl, query_dl):
            net.eval()
            return embed_all(net, gallery_dl) @ embed_all(net, query_dl).t()
        """,
        # near miss: evaluate() runs it under no_grad
        """
        def embed_all(net, dl):
            out = []
            for x, _ in dl:
                out.append(net(x).cpu())
            return torch.cat(out)
        def evaluate(net, gallery_dl, query_dl):
            net.eval()
            with torch.no_grad():
                return embed_all(net, gallery_dl) @ embed_all(net, query_dl).t()
        """,
    ],
    "gradients-never-cleared": [
        # two optimizers passed in, only the encoder's cleared
        """
        def fit(E, D, data, opt_E, opt_D):
            for x in data:
                d_loss = F.softplus(D(E(x).detach())).mean()
                d_loss.backward()
                opt_D.step()  # !
                opt_E.zero_grad()
                (-D(E(x))).mean().backward()
                opt_E.step()
        """,
        # near miss: D.zero_grad() clears the critic (a model, not an optimizer, is cleared)
        """
        def fit(E, D, data, opt_E, opt_D):
            for x in data:
                D.zero_grad()
                d_loss = F.softplus(D(E(x).detach())).mean()
                d_loss.backward()
                opt_D.step()
                opt_E.zero_grad()
                (-D(E(x))).mean().backward()
                opt_E.step()
        """,
    ],
    "softmax-before-cross-entropy": [
        # one softmax in forward, three losses: one finding, at the first
        """
        class D(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 4)
                self.sm = nn.Softmax(dim=1)
            def forward(self, x):
                return self.sm(self.fc(x))
        def fit(d, opt, x, y, z):
            crit = nn.NLLLoss()
            l1 = crit(d(x), y)  # !
            l2 = crit(d(z), y)
            (l1 + l2 + crit(d(x + z), y)).backward()
            opt.step()
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        if rule != "softmax-before-cross-entropy":  # its negatives are in test_catalogue.py
            assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
