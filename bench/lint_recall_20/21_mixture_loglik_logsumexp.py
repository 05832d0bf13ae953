"""Mixture-of-experts classifier trained by maximising the marginal log-likelihood."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedMixture(nn.Module):
    def __init__(self, in_dim, n_experts, n_classes):
        super().__init__()
        self.gate = nn.Linear(in_dim, n_experts)
        self.experts = nn.ModuleList([nn.Linear(in_dim, n_classes) for _ in range(n_experts)])

    def forward(self, x):
        log_gate = F.log_softmax(self.gate(x), dim=1)
        expert_logp = torch.stack([F.log_softmax(e(x), dim=1) for e in self.experts], dim=1)
        return log_gate, expert_logp


def marginal_nll(log_gate, expert_logp, y):
    # log p(y|x) = log sum_k p(k|x) p(y|x,k)
    idx = y.view(-1, 1, 1).expand(-1, expert_logp.size(1), 1)
    per_expert = log_gate + expert_logp.gather(2, idx).squeeze(2)
    log_lik = torch.log(torch.sum(torch.exp(per_expert), 1, keepdim=True))  # expect: unshifted-logsumexp
    return -log_lik.mean()


def train(model, loader, epochs=10, lr=1e-3, device="cpu"):
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            opt.zero_grad()
            loss = marginal_nll(*model(x), y)
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: nll {total / len(loader):.4f}")
