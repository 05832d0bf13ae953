"""Iterative magnitude pruning with weight rewinding (lottery ticket hypothesis):
train, prune the smallest weights, rewind the survivors to their initial values."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LotteryTicketPruner:
    def __init__(self, model, prune_iterations=5, sparsity_per_round=0.2):
        self.model = model
        self.prune_iterations = prune_iterations
        self.sparsity_per_round = sparsity_per_round
        self.masks = {name: torch.ones_like(p) for name, p in model.named_parameters() if p.dim() > 1}
        self.init_state = self.model.state_dict()  # expect: state-dict-not-copied

    def apply_masks(self):
        with torch.no_grad():
            for name, p in self.model.named_parameters():
                if name in self.masks:
                    p.mul_(self.masks[name])

    def prune_round(self):
        for name, p in self.model.named_parameters():
            if name not in self.masks:
                continue
            alive = p.detach().abs()[self.masks[name].bool()]
            k = int(alive.numel() * self.sparsity_per_round)
            if k == 0:
                continue
            threshold = alive.kthvalue(k).values
            self.masks[name] = (p.detach().abs() > threshold).float() * self.masks[name]

    def rewind(self):
        self.model.load_state_dict(self.init_state)
        self.apply_masks()


def train_epochs(model, pruner, loader, epochs, lr=1.2e-3, device="cuda"):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        model.train()
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            pruner.apply_masks()


@torch.no_grad()
def accuracy(model, loader, device="cuda"):
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += (model(x.to(device)).argmax(1).cpu() == y).sum().item()
        total += y.numel()
    return correct / total


def run(train_loader, test_loader, device="cuda"):
    model = nn.Sequential(nn.Flatten(), nn.Linear(784, 300), nn.ReLU(), nn.Linear(300, 100), nn.ReLU(),
                          nn.Linear(100, 10)).to(device)
    pruner = LotteryTicketPruner(model)
    for it in range(pruner.prune_iterations):
        train_epochs(model, pruner, train_loader, epochs=10, device=device)
        print(f"round {it}: acc {accuracy(model, test_loader, device):.4f}")
        pruner.prune_round()
        pruner.rewind()
