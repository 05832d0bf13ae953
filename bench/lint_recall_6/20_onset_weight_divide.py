# Source: https://github.com/york135/CTC_CE_for_AST/issues/3
# Pitfall: the weighted onset loss is divided by torch.sum(on_weight), which is 0 for a clip with no onset
#   frames; the loss becomes NaN and poisons the next update.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class TranscriptionHead(nn.Module):
    def __init__(self, d=128):
        super().__init__()
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.onset = nn.Linear(d, 1)

    def forward(self, feats):
        h, _ = self.rnn(feats)
        return self.onset(h).squeeze(-1)


onset_criterion = nn.BCEWithLogitsLoss(reduction="none")


def onset_loss(onset_logits, onset_target, on_weight):
    per_frame = onset_criterion(onset_logits, onset_target)
    return torch.sum(per_frame * on_weight) / torch.sum(on_weight)  # expect: unguarded-zero


def step(model, optimizer, feats, onset_target, on_weight):
    model.train()
    optimizer.zero_grad()
    loss = onset_loss(model(feats), onset_target, on_weight)
    loss.backward()
    optimizer.step()
    return loss.item()
