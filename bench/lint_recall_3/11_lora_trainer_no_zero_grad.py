# Source: https://github.com/tenstorrent/tt-blacksmith/pull/711
# Pitfall: The LoRA fine-tuning trainer steps the optimizer every batch but never zeroes the gradients,
# so every update uses the sum of all previous gradients.
# Reproduced in our own words, not the original code.
import torch
from torch.utils.data import DataLoader


class LoraTrainer:
    def __init__(self, model, train_set, lr=2e-4, batch_size=8, device="cuda"):
        self.model = model.to(device)
        self.device = device
        trainable = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(trainable, lr=lr)
        self.loader = DataLoader(train_set, batch_size=batch_size, shuffle=True)

    def train_epoch(self):
        self.model.train()
        losses = []
        for batch in self.loader:
            batch = {k: v.to(self.device) for k, v in batch.items()}
            out = self.model(**batch)
            out.loss.backward()
            self.optimizer.step()  # expect: gradients-never-cleared
            losses.append(out.loss.item())
        return sum(losses) / len(losses)
