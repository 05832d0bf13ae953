# Source: https://github.com/pytorch/pytorch/issues/2198
# Pitfall: a streaming RNN predictor carries `hidden` from one training step into the next
#   without detaching it, so every step extends the graph back to the start and memory is exhausted.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class StreamPredictor(nn.Module):
    def __init__(self, input_size, hidden_size, n_layers=2):
        super().__init__()
        self.hidden_size = hidden_size
        self.n_layers = n_layers
        self.rnn = nn.RNN(input_size, hidden_size, n_layers, batch_first=True)
        self.head = nn.Linear(hidden_size, input_size)

    def init_hidden(self, batch, device):
        return torch.zeros(self.n_layers, batch, self.hidden_size, device=device)

    def forward(self, x, hidden):
        out, hidden = self.rnn(x, hidden)
        return self.head(out), hidden


def train_stream(model, stream, steps, device="cuda", lr=1e-3):
    model.to(device)
    model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    criterion = nn.MSELoss()
    hidden = model.init_hidden(16, device)
    for i in range(steps):
        chunk, target = next(stream)
        chunk, target = chunk.to(device), target.to(device)
        optimizer.zero_grad()
        pred, hidden = model(chunk, hidden)  # expect: hidden-state-not-detached
        loss = criterion(pred, target)
        loss.backward(retain_graph=True)
        optimizer.step()
        if i % 100 == 0:
            print(f"step {i}: {loss.item():.5f}")
