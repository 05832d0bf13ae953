# Source: https://github.com/awslabs/graphstorm/pull/1382
# Pitfall: the node-classification trainer calls clip_grad_norm_ after optimizer.step(), on gradients
#   that were already applied and will be zeroed next iteration, so --max-grad-norm never limits an update.
# Reproduced in our own words, not the original code.
import argparse
import torch as th
import torch.nn.functional as F


class NodeTaskTrainer:
    def __init__(self, model, optimizer, device, max_grad_norm=None, norm_type=2.0):
        self.model = model
        self.optimizer = optimizer
        self.device = device
        self.max_grad_norm = max_grad_norm
        self.norm_type = norm_type

    def fit(self, train_loader, val_loader, num_epochs):
        for epoch in range(num_epochs):
            self.model.train()
            total = 0.0
            for step, (feats, blocks, labels) in enumerate(train_loader):
                feats, labels = feats.to(self.device), labels.to(self.device)
                logits = self.model(blocks, feats)
                loss = F.cross_entropy(logits, labels)

                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                if self.max_grad_norm is not None:
                    th.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm, self.norm_type)  # expect: clip-after-step
                total += loss.item()
            acc = self.evaluate(val_loader)
            print(f"epoch {epoch}: train loss {total / (step + 1):.4f} val acc {acc:.3f}")

    @th.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        hits, seen = 0, 0
        for feats, blocks, labels in loader:
            feats, labels = feats.to(self.device), labels.to(self.device)
            pred = self.model(blocks, feats).argmax(dim=1)
            hits += (pred == labels).sum().item()
            seen += labels.numel()
        return hits / max(seen, 1)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--max-grad-norm", type=float, default=None)
    p.add_argument("--grad-norm-type", type=float, default=2.0)
    p.add_argument("--epochs", type=int, default=10)
    return p.parse_args()
