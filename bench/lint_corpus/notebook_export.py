"""Style: a notebook exported to a script (top-level cells, reused names)."""
# %%
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
import torch.nn.functional as F

# %%
torch.manual_seed(0)
X = torch.randn(2000, 20)
w_true = torch.randn(20, 3)
y = (X @ w_true).argmax(1)
X_train, X_val, y_train, y_val = X[:1600], X[1600:], y[:1600], y[1600:]

# %%
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
losses = []
for step in range(500):
    idx = torch.randint(0, 1600, (64,))
    logits = model(X_train[idx])
    probs = F.softmax(logits, dim=1)
    loss = -torch.log(probs[range(64), y_train[idx]]).mean()  # expect: log-of-softmax
    loss.backward()
    opt.step()
    opt.zero_grad()
    losses.append(loss.item())

# %%
plt.plot(losses)
val_probs = F.softmax(model(X_val), dim=1)  # for the plot only
print("val acc", (val_probs.argmax(1) == y_val).float().mean().item())

# %%
entropy = -(val_probs * torch.log(val_probs)).sum(1)  # expect: log-of-softmax
plt.hist(entropy.detach().numpy())
