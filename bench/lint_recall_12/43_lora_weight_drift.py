"""Fine-tune an adapter and report how far the weights moved from the starting point."""
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=8, alpha=16):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features) * 0.01)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scaling = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scaling


def weight_drift(sd_before, sd_after):
    return {k: (sd_after[k] - sd_before[k]).norm().item() for k in sd_before if "lora" in k}


def finetune(model, loader, epochs=3, lr=1e-3):
    sd_before = model.state_dict()  # expect: state-dict-not-copied
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr)
    criterion = nn.CrossEntropyLoss()
    model.train()
    for _ in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            opt.step()
    sd_after = model.state_dict()
    drift = weight_drift(sd_before, sd_after)
    if not drift or max(drift.values()) == 0.0:
        print("warning: adapter weights did not change")
    return drift
