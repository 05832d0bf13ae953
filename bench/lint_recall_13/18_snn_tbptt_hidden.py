"""Recurrent spiking-style network trained with truncated BPTT over a long sequence."""
import torch
import torch.nn as nn


class RecurrentLayer(nn.Module):
    def __init__(self, n_in, n_hidden, tau=10.0):
        super().__init__()
        self.fc_in = nn.Linear(n_in, n_hidden)
        self.fc_rec = nn.Linear(n_hidden, n_hidden, bias=False)
        self.decay = torch.exp(torch.tensor(-1.0 / tau))

    def forward(self, x_t, v):
        v = self.decay * v + self.fc_in(x_t) + self.fc_rec(torch.tanh(v))
        return torch.tanh(v), v


class Readout(nn.Module):
    def __init__(self, n_hidden, n_out):
        super().__init__()
        self.layer = RecurrentLayer(n_hidden, n_hidden)
        self.out = nn.Linear(n_hidden, n_out)


def train_tbptt(model, inputs, targets, truncation=50, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    criterion = nn.MSELoss()
    batch, seq_len, _ = inputs.shape
    v = torch.zeros(batch, model.out.in_features)
    for start in range(0, seq_len, truncation):
        optimizer.zero_grad()
        preds = []
        for t in range(start, min(start + truncation, seq_len)):
            h, v = model.layer(inputs[:, t], v)  # expect: hidden-state-not-detached
            preds.append(model.out(h))
        loss = criterion(torch.stack(preds, 1), targets[:, start:start + len(preds)])
        loss.backward()
        optimizer.step()
        print(f"chunk {start // truncation}: loss {loss.item():.4f}")
