# Source: https://github.com/sgadgil6/cnslab_fmri/issues/4
# Pitfall: The LSTM classifier keeps its state in self.hidden and feeds it back on the next batch without detaching it, so the second backward() walks into the previous batch's freed graph ("Trying to backward through the graph a second time"); retain_graph=True just runs out of memory.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class FmriLSTM(nn.Module):
    def __init__(self, input_dim, hidden_dim, batch_size=64):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(input_dim, hidden_dim, num_layers=1, batch_first=True)
        self.linear = nn.Linear(hidden_dim, 1)
        self.dropout = nn.Dropout(p=0.2)
        self.hidden = (torch.zeros(1, batch_size, hidden_dim), torch.zeros(1, batch_size, hidden_dim))

    def forward(self, x):
        lstm_out, self.hidden = self.lstm(x, self.hidden)  # expect: hidden-state-not-detached
        out = self.dropout(lstm_out[:, -1, :])
        return self.linear(out).squeeze(-1)


def train(model, loader, epochs=20):
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y.float())
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
