# Source: https://github.com/Lightning-AI/pytorch-lightning/commit/651c25feb66ba0a4c715ca671744a20f0a1355b0
# Pitfall: the loop "detaches" and "moves to CPU" each step's outputs with bare .detach() / .cpu() calls whose
#   results are dropped, so the stored outputs keep their graphs and GPU memory across the whole epoch.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


class EpochRunner:
    def __init__(self, model, optimizer, device, keep_outputs=True):
        self.model = model
        self.optimizer = optimizer
        self.device = device
        self.keep_outputs = keep_outputs

    def training_step(self, batch):
        x, y = (t.to(self.device) for t in batch)
        logits = self.model(x)
        loss = F.cross_entropy(logits, y)
        return {"loss": loss, "logits": logits}

    def run_epoch(self, loader):
        self.model.train()
        collected = []
        for batch in loader:
            out = self.training_step(batch)
            self.optimizer.zero_grad()
            out["loss"].backward()
            self.optimizer.step()
            if self.keep_outputs:
                logits = out["logits"]
                logits.detach()  # expect: tensor-op-result-discarded
                logits.cpu()  # expect: tensor-op-result-discarded
                collected.append(logits)
        return collected

    def epoch_end(self, collected):
        scores = torch.cat([c.float() for c in collected])
        return scores.softmax(dim=-1).max(dim=-1).values.mean().item()
