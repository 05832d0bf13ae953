"""Support-ticket router: tickets (bags of token ids from a 2,000-word vocabulary) are classified into 6 queues by an EmbeddingBag(mean) -> Linear model, forward passes under CPU autocast in bfloat16, cross-entropy, Adam with a peak learning rate of 3e-3 and a linear decay schedule, DataLoader batches of 64, 6 epochs. The decay is built as LambdaLR(lambda step: max(0, 1 - step / TOTAL)) with TOTAL set to the number of epochs, but scheduler.step() is called after every batch, as is usual for per-iteration schedules: the learning rate reaches exactly zero after the sixth batch and stays there for the remaining ~560 steps. The model gets six tiny updates and the rest of the run changes nothing, so the router stays close to guessing, the "learning rate drops to 0 very early making the training useless" of the report.

Source: https://github.com/open-edge-platform/geti_v2/issues/1603 ([BUG] Learning rate drops to 0 very early making the training useless)
Report: "When training a maskRCNN-ResNet-50-V2 model or MaskRCNN-EfficientNetB2B model (possibly more) the
learning rate will drop to 0 after ~30 epochs - everytime... Looks like a scheduling issue? This makes
the model training useless ... I expect that the learning rate does not drop to 0 but rather go towards
the base learning rate". Reproduced with 6,000 synthetic tickets (each queue has 40 characteristic words
mixed with common words) and a decay whose length is counted in epochs while it is stepped per batch.
The printed loss is the cross-entropy on 1,500 held-out tickets, `acc` their accuracy.

expect: lr-too-low
symptom: loss-above 1.2
batch: 24
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
TOTAL = EPOCHS
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
