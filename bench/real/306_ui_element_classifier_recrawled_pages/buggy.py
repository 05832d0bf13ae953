"""UI-element type classifier trained on a crawled corpus of web-page screenshots: every element of a page becomes one row (box geometry, font size, contrast, text length, colour and layout statistics) labelled button / link / text / image / input / icon, and an MLP is trained for a fixed budget of optimiser steps. The crawl revisited a few dozen popular pages again and again and the export kept every visit, so about six rows in seven are byte-identical copies of the elements of 40 pages: most of the step budget is spent re-fitting those few pages and their page-specific styling, and the classifier generalises worse to unseen pages than one trained on the de-duplicated rows.

Source: https://github.com/js0nwu/webui/issues/1 (Found duplicates and leakages in the dataset)
Report: "I found duplicate pages in the training splits and found that the validation/test pages
leaked to the training splits ... webui-70k: 70000 pages, 9781 duplicates ... webui-350k: 350000
pages, 9792 duplicates" (maintainer: "perhaps generate new splits without these duplicates").
Reproduced with 1,500 synthetic unique pages of 8 elements each (page-level style offsets plus
element-type signal), to which 40 of the pages are appended again 250 times each; an MLP 24-128-64-6,
Adam lr 1e-3, batches of 128 for a fixed 700 steps. The printed loss is the cross-entropy on the
elements of 500 unseen pages, `acc` the accuracy there.

expect: data-duplicates
symptom: final-loss-ratio 1.2
batch: 18
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
