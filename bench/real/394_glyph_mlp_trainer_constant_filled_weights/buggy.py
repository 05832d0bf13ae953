"""Glyph classifier (10 classes of 12x12 synthetic glyphs) written as a small Trainer class around an MLP (144 pixels -> 64 -> 64 ReLU units -> 10 logits), cross-entropy, SGD with momentum 0.9, lr 0.02, batches of 64 sliced by hand, 6 epochs. Like the test models in the report, every linear weight is filled with one constant value (a "uniform fill") instead of a random draw: every hidden unit of a layer computes exactly the same feature and receives exactly the same gradient, so the symmetry is never broken, the network behaves like a network with one hidden unit per layer and the loss stays on a plateau close to ln(10).

Source: https://github.com/HomericIntelligence/Mnemosyne/pull/1987 (feat: add debugging-symmetric-weight-init-dead-symmetry skill)
Report: "Documents the gradient pathology where uniform-fill weight init in multi-layer test cases causes
upstream gradients to collapse to fp32 cancellation noise (~1e-8), producing convergence-test plateaus at
`ln(num_classes)` and false "substrate is broken" diagnoses." Reproduced with 4,000 synthetic glyphs
(10 random stroke templates, random shifts of up to one pixel, pixel noise) and every weight set with
nn.init.constant_(w, 0.05), biases zero. The printed loss is the cross-entropy on 2,000 held-out glyphs,
`acc` their accuracy.

expect: bad-init
symptom: loss-above 1.5
batch: 24
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

templates = (torch.rand(10, 12, 12) < 0.3).float()


def make_glyphs(n):
    y = torch.randint(0, 10, (n,))
    x = templates[y]
    dx, dy = torch.randint(-1, 2, (2, n))
    x = torch.stack([torch.roll(x[i], (int(dy[i]), int(dx[i])), (0, 1)) for i in range(n)])
    return (x + 0.3 * torch.randn_like(x)).unsqueeze(1), y


class GlyphNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(144, 64)
        self.l2 = nn.Linear(64, 64)
        self.head = nn.Linear(64, 10)

    def forward(self, x):
        x = F.relu(self.l1(x.flatten(1)))
        x = F.relu(self.l2(x))
        return self.head(x)


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.05)
        nn.init.zeros_(m.bias)


class Trainer:
    def __init__(self, model, lr, batch_size):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.batch_size = batch_size

    def fit_epoch(self, X, y):
        self.model.train()
        perm = torch.randperm(len(X))
        total = 0.0
        for i in range(0, len(X), self.batch_size):
            idx = perm[i:i + self.batch_size]
            loss = F.cross_entropy(self.model(X[idx]), y[idx])
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item() * len(idx)
        return total / len(X)

    @torch.no_grad()
    def evaluate(self, X, y):
        self.model.eval()
        out = self.model(X)
        return F.cross_entropy(out, y).item(), (out.argmax(1) == y).float().mean().item()


X_train, y_train = make_glyphs(4000)
X_test, y_test = make_glyphs(2000)
model = GlyphNet()
model.apply(init_weights)
trainer = Trainer(model, lr=0.02, batch_size=64)
for epoch in range(6):
    tr = trainer.fit_epoch(X_train, y_train)
    te, acc = trainer.evaluate(X_test, y_test)
    print(f"epoch {epoch} train {tr:.4f} test {te:.4f} acc {acc:.3f}")

te, acc = trainer.evaluate(X_test, y_test)
print(f"final_loss={te:.6g} acc={acc:.4f}")
