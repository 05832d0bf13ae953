"""Sanity check that a few optimizer steps on a LoRA-wrapped MLP actually move the adapter weights."""
import torch
import torch.nn as nn


class LoraLinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features) * 0.01)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scaling = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scaling


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin0 = nn.Linear(10, 20)
        self.relu = nn.ReLU()
        self.lin1 = nn.Linear(20, 2)

    def forward(self, x):
        return self.lin1(self.relu(self.lin0(x)))


def wrap_with_lora(model):
    model.lin0 = LoraLinear(model.lin0)
    model.lin1 = LoraLinear(model.lin1)
    return model


def check_training_updates_adapters(steps=5):
    torch.manual_seed(0)
    peft_model = wrap_with_lora(MLP())
    sd_before = peft_model.state_dict()  # expect: state-dict-not-copied
    inputs = torch.randn(16, 10)
    targets = torch.randint(0, 2, (16,))
    trainable = [p for p in peft_model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(trainable, lr=1e-4)

    peft_model.train()
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(peft_model(inputs), targets)
        loss.backward()
        optimizer.step()

    sd_after = peft_model.state_dict()
    for name in sd_after:
        assert torch.isfinite(sd_after[name]).all(), name
    changed = [n for n in sd_after if "lora_" in n and not torch.equal(sd_before[n], sd_after[n])]
    assert changed, "adapter weights did not change"
    frozen_same = all(torch.equal(sd_before[n], sd_after[n]) for n in sd_after if "base" in n)
    assert frozen_same, "frozen base weights changed"
    return changed


if __name__ == "__main__":
    print(check_training_updates_adapters())
