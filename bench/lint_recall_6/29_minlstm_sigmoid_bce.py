# Source: https://github.com/YecanLee/min-LSTM-torch/pull/1
# Pitfall: the classification head ends in nn.Sigmoid and the loop trains with nn.BCELoss on those
#   probabilities instead of BCEWithLogitsLoss on the logits; saturated outputs lose gradient and precision.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class MinGRUCell(nn.Module):
    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.z = nn.Linear(d_in, d_hidden)
        self.h_tilde = nn.Linear(d_in, d_hidden)

    def forward(self, x_t, h_prev):
        z = torch.sigmoid(self.z(x_t))
        return (1 - z) * h_prev + z * self.h_tilde(x_t)


class MinRNNClassifier(nn.Module):
    def __init__(self, d_in=16, d_hidden=64):
        super().__init__()
        self.cell = MinGRUCell(d_in, d_hidden)
        self.classification_model = nn.Sequential(nn.Linear(d_hidden, 1), nn.Sigmoid())

    def forward(self, seq):
        h = seq.new_zeros(seq.size(0), self.cell.z.out_features)
        for t in range(seq.size(1)):
            h = self.cell(seq[:, t], h)
        return self.classification_model(h).squeeze(-1)


def train(model, loader, epochs=5):
    criterion = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        model.train()
        for seq, label in loader:
            optimizer.zero_grad()
            probs = model(seq)
            loss = criterion(probs, label.float())  # expect: sigmoid-before-bce
            loss.backward()
            optimizer.step()
