"""Support-ticket router -- fixed by sizing the linear decay in the unit it is stepped in (epochs times
batches per epoch), so the learning rate decays from 3e-3 towards zero over the whole run instead of
reaching zero after six batches; nothing else changed.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, QUEUES, LEN, EPOCHS = 2000, 6, 30, 6
queue_words = torch.randint(200, VOCAB, (QUEUES, 40))


def tickets(n):
    y = torch.randint(0, QUEUES, (n,))
    common = torch.randint(0, 200, (n, LEN))
    topical = queue_words[y][torch.arange(n)[:, None], torch.randint(0, 40, (n, LEN))]
    use_topical = torch.rand(n, LEN) < 0.3
    return torch.where(use_topical, topical, common), y


X_train, y_train = tickets(6000)
X_test, y_test = tickets(1500)


class Router(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 32, mode="mean")
        self.out = nn.Linear(32, QUEUES)

    def forward(self, tokens):
        return self.out(self.emb(tokens))


model = Router()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
TOTAL = EPOCHS * len(loader)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: max(0.0, 1 - step / TOTAL))

for epoch in range(EPOCHS):
    total = 0.0
    for xb, yb in loader:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(xb)
        loss = F.cross_entropy(logits.float(), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch} lr {sched.get_last_lr()[0]:.2e} loss {total / len(X_train):.4f}")

with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
    logits = model(X_test).float()
with torch.no_grad():
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
