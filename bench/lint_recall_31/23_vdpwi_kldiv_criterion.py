"""Similarity regression trained against a target distribution with a KL criterion (SICK-style)."""
from collections import namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from scipy.stats import pearsonr
from tqdm import tqdm

Context = namedtuple("Context", "model, train_loader, dev_loader, optimizer, criterion, params")


class PairModel(nn.Module):
    def __init__(self, dim=300, hidden=200, n_classes=5):
        super().__init__()
        self.rnn = nn.LSTM(dim, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Sequential(nn.Linear(8 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))

    def forward(self, s1, s2):
        h1 = self.rnn(s1)[0].max(dim=1).values
        h2 = self.rnn(s2)[0].max(dim=1).values
        return self.out(torch.cat([h1, h2, (h1 - h2).abs(), h1 * h2], dim=1))


def create_context(train_loader, dev_loader, lr=5e-4, decay=0.95, momentum=0.05):
    model = PairModel()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = optim.RMSprop(params, lr=lr, alpha=decay, momentum=momentum)
    criterion = nn.KLDivLoss()  # expect: kl-div-mean-reduction
    return Context(model, train_loader, dev_loader, optimizer, criterion, params)


def evaluate(model, loader):
    model.eval()
    preds, golds = [], []
    classes = torch.arange(1, 6).float()
    with torch.no_grad():
        for s1, s2, target in loader:
            probs = F.softmax(model(s1, s2), dim=1)
            preds.extend((probs * classes).sum(1).tolist())
            golds.extend((target * classes).sum(1).tolist())
    return pearsonr(preds, golds)[0]


def train(ctx, n_epochs=10):
    for epoch in range(n_epochs):
        ctx.model.train()
        bar = tqdm(ctx.train_loader, desc="Loss")
        for s1, s2, label_pmf in bar:
            ctx.optimizer.zero_grad()
            scores = F.log_softmax(ctx.model(s1, s2), dim=1)
            loss = ctx.criterion(scores, label_pmf)
            loss.backward()
            nn.utils.clip_grad_norm_(ctx.params, 50)
            ctx.optimizer.step()
            bar.set_description(f"Loss = {loss.item():.4f}")
        print("dev pearson", evaluate(ctx.model, ctx.dev_loader))


if __name__ == "__main__":
    def batch():
        pmf = F.softmax(torch.randn(16, 5), dim=1)
        return torch.randn(16, 12, 300), torch.randn(16, 10, 300), pmf

    train(create_context([batch() for _ in range(10)], [batch() for _ in range(3)]), n_epochs=2)
