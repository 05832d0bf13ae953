# Source: https://github.com/heartcored98/Standalone-DeepLearning/issues/11
# Pitfall: zero_grad() is called once per epoch, outside the batch loop, so within an epoch
# every step adds its gradient on top of the previous ones.
# Reproduced in our own words, not the original code.
import torch
from torch import nn

net = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)


def train(trainloader, epochs):
    for epoch in range(epochs):
        optimizer.zero_grad()
        for inputs, labels in trainloader:
            loss = criterion(net(inputs), labels)
            loss.backward()
            optimizer.step()  # expect: gradients-never-cleared
