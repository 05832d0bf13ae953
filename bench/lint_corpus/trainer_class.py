"""Style: a Trainer class with the criterion and the model set up in __init__."""
import torch
import torch.nn.functional as F
from torch import nn


class TextClassifier(nn.Module):
    def __init__(self, vocab, n_cls, d=128):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d)
        self.fc = nn.Linear(d, n_cls)

    def forward(self, tokens, offsets):
        return F.log_softmax(self.fc(self.emb(tokens, offsets)), dim=-1)


class Trainer:
    def __init__(self, model, lr=5.0, accum=4):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, 1, gamma=0.1)
        self.accum = accum

    def train_epoch(self, loader):
        self.model.train()
        for i, (label, tokens, offsets) in enumerate(loader):
            out = self.model(tokens, offsets)
            loss = self.criterion(out, label) / self.accum  # expect: softmax-before-cross-entropy
            loss.backward()
            if (i + 1) % self.accum == 0:
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 0.1)
                self.optimizer.step()  # expect: gradients-never-cleared
        self.scheduler.step()

    def evaluate(self, loader):
        self.model.eval()
        total = correct = 0
        with torch.no_grad():
            for label, tokens, offsets in loader:
                pred = self.model(tokens, offsets).argmax(1)
                correct += (pred == label).sum().item()
                total += label.size(0)
        return correct / max(total, 1)
