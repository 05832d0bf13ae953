# Source: https://github.com/huggingface/transformers/pull/6999
# Pitfall: the trainer accumulates the step loss tensor into tr_loss without detaching it, so the graph of
#   every step is kept; CPU RAM climbs until a ~20k-step run exhausts 12 GB.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class LoopState:
    def __init__(self):
        self.global_step = 0
        self.tr_loss = torch.tensor(0.0)


class MiniTrainer:
    def __init__(self, model: nn.Module, lr: float = 5e-5):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lambda s: 1.0)
        self.state = LoopState()

    def training_step(self, inputs):
        self.model.train()
        outputs = self.model(**inputs)
        loss = outputs["loss"]
        loss.backward()
        return loss

    def train(self, dataloader, max_steps=1000):
        for inputs in dataloader:
            self.optimizer.zero_grad()
            step_loss = self.training_step(inputs)
            self.state.tr_loss = self.state.tr_loss + step_loss  # expect: running-loss-keeps-graph
            self.optimizer.step()
            self.scheduler.step()
            self.state.global_step += 1
            if self.state.global_step >= max_steps:
                break
        return self.state.tr_loss.item() / max(self.state.global_step, 1)
