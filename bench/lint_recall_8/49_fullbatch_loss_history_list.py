# Source: https://pydev.vn/d/114-tai-sao-chung-ta-can-goi-zero-grad-trong-pytorch
# Pitfall: the full-batch loop appends the loss tensor itself to a history list for plotting, so every
# epoch's autograd graph stays alive; memory grows with the epoch count (PyTorch FAQ: accumulating history).
# Reproduced in our own words, not the original code.
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.datasets import load_wine
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler


class WineNet(nn.Module):
    def __init__(self, n_in, n_hidden=24, n_out=3):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_hidden)
        self.out = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.out(x)


feats, classes = load_wine(return_X_y=True)
x_tr, x_te, y_tr, y_te = train_test_split(feats, classes, test_size=0.25, random_state=7)
scaler = StandardScaler().fit(x_tr)
x_tr = torch.tensor(scaler.transform(x_tr), dtype=torch.float32)
x_te = torch.tensor(scaler.transform(x_te), dtype=torch.float32)
y_tr = torch.tensor(y_tr, dtype=torch.long)
y_te = torch.tensor(y_te, dtype=torch.long)

net = WineNet(x_tr.shape[1])
criterion = nn.CrossEntropyLoss()
opt = torch.optim.Adam(net.parameters(), lr=0.01)

history = []
for epoch in range(1, 5001):
    logits = net(x_tr)
    loss = criterion(logits, y_tr)
    history.append(loss)  # expect: running-loss-keeps-graph
    if epoch % 500 == 1:
        print(f"epoch {epoch} loss {loss.item():.4f}")
    opt.zero_grad()
    loss.backward()
    opt.step()

net.eval()
with torch.no_grad():
    acc = (net(x_te).argmax(1) == y_te).float().mean().item()
print(f"test accuracy {acc:.3f}")

plt.plot([h.item() for h in history])
plt.xlabel("epoch")
plt.ylabel("cross-entropy")
plt.savefig("wine_loss.png")
