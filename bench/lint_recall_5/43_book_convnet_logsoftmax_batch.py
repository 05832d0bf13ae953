# Source: https://github.com/swarmapytorch/book_DeepLearning_in_PyTorch_Source/issues/8
# Pitfall: the book's digit ConvNet ends with F.log_softmax(x, dim=0), i.e. over the batch rows, and that
#          output is then scored with nn.CrossEntropyLoss, which applies log_softmax again (the issue reports both).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class DigitConvNet(nn.Module):
    def __init__(self, depth=(4, 8)):
        super().__init__()
        self.conv1 = nn.Conv2d(1, depth[0], 5, padding=2)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(depth[0], depth[1], 5, padding=2)
        self.fc1 = nn.Linear(7 * 7 * depth[1], 512)
        self.fc2 = nn.Linear(512, 10)
        self.depth = depth

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 7 * 7 * self.depth[1])
        x = F.dropout(F.relu(self.fc1(x)), training=self.training)
        x = self.fc2(x)
        x = F.log_softmax(x, dim=0)  # expect: softmax-over-batch-dim
        return x


if __name__ == "__main__":
    imgs, labels = torch.randn(320, 1, 28, 28), torch.randint(0, 10, (320,))
    train_loader = DataLoader(TensorDataset(imgs, labels), batch_size=64, shuffle=True)
    net = DigitConvNet()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
    for epoch in range(2):
        net.train()
        for data, target in train_loader:
            optimizer.zero_grad()
            output = net(data)
            loss = criterion(output, target)  # expect: softmax-before-cross-entropy
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())
