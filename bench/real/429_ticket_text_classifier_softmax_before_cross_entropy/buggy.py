"""Support-ticket topic classifier (mean-pooled token embeddings, a hidden layer, 5 topics with a skewed distribution: 48/22/14/9/7%), written as a small Trainer class that feeds the model output to nn.CrossEntropyLoss. The model ends in nn.Softmax, so the "logits" handed to the loss are already probabilities in (0, 1): CrossEntropyLoss applies log_softmax a second time, the scores of all classes are squeezed into a span of at most 1, the loss can never drop much below ln(5) - 1 and its gradient is flattened -- training crawls and the classifier leans on the majority topic, so the rare topics are hardly ever predicted.

Source: https://github.com/illiterate/BertClassifier/issues/2 (CrossEntropyLoss内置log_softmax，不需要在模型输出层额外添加softmax)
Report: (translated) "when training the model the loss decreases very slowly ... when the data is small and
imbalanced, the predictions clearly lean towards the class with the most data. Cause: nn.CrossEntropyLoss() has a
built-in log_softmax; adding softmax at the model's output layer applies softmax twice ... the model has difficulty
converging. Fix: remove the softmax from the model output layer." Reproduced with 3,000 synthetic tickets (vocabulary
of 600 words, 20-token tickets, each topic with its own keyword set mixed into shared filler words), EmbeddingBag(32)
-> Linear(64) -> ReLU -> Linear(5) -> Softmax, Adam lr 2e-3, batch 64, 6 epochs. The printed loss is the held-out
cross-entropy as computed by the training criterion; `acc` is the held-out balanced accuracy (mean per-topic recall).

expect: loss-mismatch
symptom: acc-below 0.62
batch: 26
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
        self.head = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, N_TOPICS), nn.Softmax(dim=1))

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
