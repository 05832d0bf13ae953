# Source: https://github.com/meta-pytorch/torchforge/pull/71
# Pitfall: the trainer's step backpropagates and steps every iteration but never zeroes the
# gradients, so each update uses the sum of all gradients so far.
# Reproduced in our own words, not the original code.
import torch


class Trainer:
    def __init__(self, model, lr=1e-5):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)

    def train_step(self, batch):
        logits = self.model(batch["input_ids"])
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten())
        loss.backward()
        self.optimizer.step()  # expect: gradients-never-cleared
        return loss.item()

    def run(self, loader, steps):
        for i, batch in zip(range(steps), loader):
            self.train_step(batch)
