# Source: https://github.com/jindongwang/Deep-learning-activity-recognition/issues/10
# Pitfall: The network ends in F.softmax and that output is handed to nn.CrossEntropyLoss, which applies log_softmax itself; the doubled softmax flattens the gradients and the classifier learns slowly or stalls.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SensorConvNet(nn.Module):
    def __init__(self, n_channels=9, n_activities=6):
        super().__init__()
        self.conv1 = nn.Conv1d(n_channels, 32, kernel_size=5)
        self.conv2 = nn.Conv1d(32, 64, kernel_size=5)
        self.pool = nn.AdaptiveMaxPool1d(1)
        self.fc = nn.Linear(64, n_activities)

    def forward(self, x):
        h = F.relu(self.conv1(x))
        h = F.relu(self.conv2(h))
        h = self.pool(h).flatten(1)
        return F.softmax(self.fc(h), dim=1)


def train(signals, labels, epochs=20):
    loader = DataLoader(TensorDataset(signals, labels), batch_size=64, shuffle=True)
    net = SensorConvNet()
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(epochs):
        net.train()
        for xb, yb in loader:
            opt.zero_grad()
            probs = net(xb)
            loss = criterion(probs, yb)  # expect: softmax-before-cross-entropy
            loss.backward()
            opt.step()
    return net
