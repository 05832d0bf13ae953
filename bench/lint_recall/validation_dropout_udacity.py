# Source: https://github.com/udacity/deep-learning-v2-pytorch/issues/3
# Pitfall: an MLP with dropout is validated every epoch without model.eval(), so the
# validation loss used for checkpointing is measured with dropout on.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, 512)
        self.fc2 = nn.Linear(512, 10)
        self.dropout = nn.Dropout(0.2)

    def forward(self, x):
        return self.fc2(self.dropout(torch.relu(self.fc1(x.view(-1, 784)))))


model = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)


def run(train_loader, valid_loader, n_epochs=20):
    for epoch in range(n_epochs):
        for data, target in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(data), target)
            loss.backward()
            optimizer.step()
        valid_loss = 0.0
        for data, target in valid_loader:
            valid_loss += criterion(model(data), target).item()  # expect: validation-in-train-mode
        print(epoch, valid_loss / len(valid_loader))
