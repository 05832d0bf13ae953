# Source: https://github.com/deepset-ai/FARM/issues/229
# Pitfall: The regression head squeezes its logits to shape (N,) while the labels stay (N, 1); the MSE loss broadcasts the pair to (N, N) and the model fits the wrong objective (PyTorch only warns).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class RegressionHead(nn.Module):
    def __init__(self, hidden=768):
        super().__init__()
        self.dropout = nn.Dropout(0.1)
        self.linear = nn.Linear(hidden, 1)
        self.loss_fct = nn.MSELoss(reduction="none")

    def forward(self, pooled):
        return self.linear(self.dropout(pooled)).squeeze(-1)

    def logits_to_loss(self, logits, label_ids):
        return self.loss_fct(logits, label_ids.float())  # expect: loss-shape-broadcast


def train(encoder, head, loader, epochs=3, lr=2e-5):
    params = list(encoder.parameters()) + list(head.parameters())
    optimizer = torch.optim.AdamW(params, lr=lr)
    for _ in range(epochs):
        encoder.train()
        head.train()
        for input_ids, label_ids in loader:
            label_ids = label_ids.view(-1, 1)
            logits = head(encoder(input_ids))
            loss = head.logits_to_loss(logits, label_ids).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
