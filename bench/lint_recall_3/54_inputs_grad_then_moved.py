# Source: https://github.com/pytorch/pytorch/issues/12627
# Pitfall: The inputs are flagged requires_grad=True and then reassigned to their .cuda() copies; the
# copies are non-leaf tensors, so inputs.grad prints None after backward.
# Reproduced in our own words, not the original code.
import torch
from torch import nn, optim


def inspect_input_gradients(steps=3):
    inputs = torch.randn(3, 5, requires_grad=True)
    targets = torch.tensor([1, 2, 3]).long()
    inputs, targets = inputs.cuda(), targets.cuda()  # expect: non-leaf-parameter
    net = nn.Sequential(nn.Linear(5, 5), nn.LogSoftmax(dim=1)).cuda()
    net.train()
    optimizer = optim.Adam(net.parameters(), lr=0.001)
    loss_fn = nn.NLLLoss()
    for _ in range(steps):
        optimizer.zero_grad()
        out = net(inputs[0:1])
        loss = loss_fn(out, targets[0:1])
        loss.backward()
        print(inputs.grad)
        optimizer.step()
