"""UI-element classifier on crawled pages -- fixed by de-duplicating the crawl export (torch.unique over
rows, keeping one copy of every revisited page's elements) before computing the scaler and training
(nothing else changed).
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

TYPES, FEATS, PER_PAGE = 6, 24, 8
type_signature = torch.randn(TYPES, FEATS)
style_mix = torch.randn(FEATS, FEATS) / FEATS ** 0.5


def pages(n):
    style = 1.0 * torch.randn(n, 1, FEATS)
    y = torch.randint(0, TYPES, (n, PER_PAGE))
    x = 0.8 * type_signature[y] + style + 0.9 * torch.randn(n, PER_PAGE, FEATS)
    x = x + 0.5 * torch.tanh(x @ style_mix)
    return x, y


def crawl_export(x, y):
    revisits = torch.randperm(len(x))[:40]
    x = torch.cat([x, x[revisits].repeat(250, 1, 1)])
    y = torch.cat([y, y[revisits].repeat(250, 1)])
    return x.reshape(-1, FEATS), y.reshape(-1)


X_pages, y_pages = pages(1500)
X_train, y_train = crawl_export(X_pages, y_pages)
rows, first = torch.unique(torch.cat([X_train, y_train[:, None].float()], 1), dim=0, return_inverse=True)
X_train, y_train = rows[:, :FEATS], rows[:, FEATS].long()
X_test, y_test = pages(500)
X_test, y_test = X_test.reshape(-1, FEATS), y_test.reshape(-1)
mu, sd = X_train.mean(0), X_train.std(0)


class Trainer:
    def __init__(self, model, max_steps=700, batch_size=128):
        self.model, self.max_steps, self.batch_size = model, max_steps, batch_size
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def fit(self, x, y):
        step = 0
        while step < self.max_steps:
            perm = torch.randperm(len(x))
            for i in range(0, len(perm), self.batch_size):
                idx = perm[i:i + self.batch_size]
                loss = F.cross_entropy(self.model((x[idx] - mu) / sd), y[idx])
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                step += 1
                if step % 100 == 0:
                    print(f"step {step} train {loss.item():.4f} test {self.evaluate()[0]:.4f}")
                if step == self.max_steps:
                    break

    @torch.no_grad()
    def evaluate(self):
        logits = self.model((X_test - mu) / sd)
        return F.cross_entropy(logits, y_test).item(), (logits.argmax(1) == y_test).float().mean().item()


model = nn.Sequential(nn.Linear(FEATS, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, TYPES))
trainer = Trainer(model)
print(f"{len(X_train)} training rows")
trainer.fit(X_train, y_train)
val, acc = trainer.evaluate()
print(f"final_loss={val:.6g} acc={acc:.4f}")
