"""Inference speed benchmark of a small MNIST convnet (old autograd API)."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable
from torchvision import datasets, transforms

test_loader = torch.utils.data.DataLoader(
    datasets.MNIST("./data", train=False, download=True,
                   transform=transforms.Compose([transforms.ToTensor(),
                                                 transforms.Normalize((0.1307,), (0.3081,))])),
    batch_size=1, shuffle=False)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, padding=1)
        self.conv2 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc1 = nn.Linear(64 * 28 * 28, 256)
        self.fc2 = nn.Linear(256, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = x.view(x.size(0), -1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


model = Net()
model.load_state_dict(torch.load("mnist_conv.pt", weights_only=True))
model.eval()
correct = 0
start = time.time()
for data, target in test_loader:
    data, target = Variable(data, volatile=True), Variable(target)  # expect: volatile-variable
    output = model(data)
    pred = output.argmax(dim=1)
    correct += (pred == target).sum().item()
print("acc", correct / len(test_loader.dataset), "time", time.time() - start)
