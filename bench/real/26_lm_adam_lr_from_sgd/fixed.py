"""Fixed version of 26_lm_adam_lr_from_sgd/buggy.py (the source and the report are in its docstring).

Fix: Adam's default learning rate, 0.001.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

config = {"learning_rate": 0.001, "bptt": 20, "batch_size": 16, "emb": 32, "hidden": 64}
V = 40
trans = torch.softmax(torch.randn(V, V) * 2.0, 1)
stream = [0]
for _ in range(20000):
    stream.append(torch.multinomial(trans[stream[-1]], 1).item())
data = torch.tensor(stream)
nb = data.size(0) // config["batch_size"]
data = data[:nb * config["batch_size"]].view(config["batch_size"], -1).t().contiguous()


class RNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Embedding(V, config["emb"])
        self.rnn = nn.LSTM(config["emb"], config["hidden"])
        self.decoder = nn.Linear(config["hidden"], V)

    def forward(self, x, hidden):
        out, hidden = self.rnn(self.encoder(x), hidden)
        return self.decoder(out), hidden


model = RNNModel()
optimizer = torch.optim.Adam(model.parameters(), lr=config["learning_rate"])
criterion = nn.CrossEntropyLoss()
hidden = None
losses = []
for i in range(0, min(data.size(0) - 1, 150 * config["bptt"]), config["bptt"]):
    seq_len = min(config["bptt"], data.size(0) - 1 - i)
    x, y = data[i:i + seq_len], data[i + 1:i + 1 + seq_len]
    if hidden is not None:
        hidden = tuple(h.detach() for h in hidden)
    out, hidden = model(x, hidden)
    loss = criterion(out.view(-1, V), y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={0.0:.4f}")
