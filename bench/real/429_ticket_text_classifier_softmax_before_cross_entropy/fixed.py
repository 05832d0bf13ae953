"""Support-ticket topic classifier trained through a small Trainer class with nn.CrossEntropyLoss -- fixed as the
issue says: the nn.Softmax at the end of the model is removed, so the loss receives raw logits and applies
log_softmax only once (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, LEN, N_TOPICS = 600, 20, 5
PRIOR = torch.tensor([0.48, 0.22, 0.14, 0.09, 0.07])
keywords = torch.randperm(VOCAB)[:N_TOPICS * 15].view(N_TOPICS, 15)


def tickets(n):
    y = torch.multinomial(PRIOR, n, replacement=True)
    tok = torch.randint(0, VOCAB, (n, LEN))
    use_kw = torch.rand(n, LEN) < 0.18
    kw = keywords[y][torch.arange(n)[:, None], torch.randint(0, 15, (n, LEN))]
    return torch.where(use_kw, kw, tok), y


class TicketClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 32, mode="mean")
        self.head = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, N_TOPICS))

    def forward(self, tokens):
        return self.head(self.emb(tokens))


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.criterion = nn.CrossEntropyLoss()

    def fit(self, loader, epochs):
        for epoch in range(epochs):
            total, n = 0.0, 0
            for tokens, y in loader:
                loss = self.criterion(self.model(tokens), y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                total, n = total + loss.item() * len(y), n + len(y)
            print(f"epoch {epoch} train loss {total / n:.4f}")

    @torch.no_grad()
    def evaluate(self, tokens, y):
        out = self.model(tokens)
        pred = out.argmax(1)
        recalls = [(pred[y == c] == c).float().mean().item() for c in range(N_TOPICS)]
        return self.criterion(out, y).item(), sum(recalls) / N_TOPICS


X_tr, y_tr = tickets(3000)
X_te, y_te = tickets(1000)
trainer = Trainer(TicketClassifier(), lr=2e-3)
trainer.fit(DataLoader(TensorDataset(X_tr, y_tr), batch_size=64, shuffle=True), epochs=6)
loss, bal_acc = trainer.evaluate(X_te, y_te)
print(f"final_loss={loss:.6g} acc={bal_acc:.4f}")
