# Source: https://github.com/Lightning-AI/pytorch-lightning/commit/79c913bb36655719d261065ea87d86f7866a6843
# Pitfall: the manual optimisation loop names optimizer.zero_grad without calling it, so the statement does
#   nothing and gradients from every step keep adding up in .grad.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoHeadModel(nn.Module):
    def __init__(self, d_in=32, d_hidden=64, n_cls=5):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU())
        self.cls_head = nn.Linear(d_hidden, n_cls)
        self.reg_head = nn.Linear(d_hidden, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.cls_head(h), self.reg_head(h).squeeze(-1)


def on_before_zero_grad(model, optimizer):
    norms = [p.grad.norm() for p in model.parameters() if p.grad is not None]
    if norms:
        print("grad norm", torch.stack(norms).norm().item())


def fit(model, loader, epochs=3):
    optimizers = [
        torch.optim.SGD(model.trunk.parameters(), lr=0.05, momentum=0.9),
        torch.optim.Adam(list(model.cls_head.parameters()) + list(model.reg_head.parameters()), lr=1e-3),
    ]
    model.train()
    for epoch in range(epochs):
        for x, y_cls, y_reg in loader:
            logits, value = model(x)
            loss = F.cross_entropy(logits, y_cls) + F.smooth_l1_loss(value, y_reg)
            loss.backward()
            for optimizer in optimizers:
                optimizer.step()
                on_before_zero_grad(model, optimizer)
                optimizer.zero_grad  # expect: method-not-called
        print(f"epoch {epoch} done, last loss {loss.item():.4f}")
