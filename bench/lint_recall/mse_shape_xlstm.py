# Source: https://github.com/andrewgcodes/xlstm/issues/4
# Pitfall: a (10, 1) prediction against a (1, 1) target: MSELoss warns and broadcasts.
# Reproduced in our own words, not the original code.
import torch
from torch import nn

criterion = nn.MSELoss()


def train(model, optimizer, sequences, epochs=10):
    for _ in range(epochs):
        optimizer.zero_grad()
        loss = 0.0
        for seq, y_true in sequences:  # seq: (10, 1, d); y_true: (1, 1)
            y_pred = model(seq)  # (10, 1)
            loss = loss + criterion(y_pred, y_true)  # expect: loss-shape-broadcast
        loss.backward()
        optimizer.step()
