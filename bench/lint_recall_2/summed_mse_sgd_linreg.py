# Source: https://github.com/ShusenTang/Dive-into-DL-PyTorch/issues/75
# Pitfall: The loss is summed over the mini-batch (reduction='sum') while plain SGD is used with a learning rate tuned for a per-sample average; the step grows with the batch size and the weights blow up (gradient explosion, "no result").
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

num_inputs = 2
true_w = torch.tensor([2.0, -3.4])
true_b = 4.2
features = torch.randn(1000, num_inputs)
labels = features @ true_w + true_b + 0.01 * torch.randn(1000)

data_iter = DataLoader(TensorDataset(features, labels), batch_size=10, shuffle=True)
net = nn.Linear(num_inputs, 1)
loss = nn.MSELoss(reduction="sum")  # expect: summed-loss-step
optimizer = torch.optim.SGD(net.parameters(), lr=0.03)

for epoch in range(3):
    for X, y in data_iter:
        output = net(X)
        l = loss(output, y.view(-1, 1))
        optimizer.zero_grad()
        l.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}, loss: {l.item():.6f}")
