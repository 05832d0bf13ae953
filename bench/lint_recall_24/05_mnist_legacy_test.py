"""MNIST convnet with an old-style (Variable) test routine."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.autograd import Variable
from torchvision import datasets, transforms


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2(x), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x))  # expect: softmax-without-dim


tfm = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
train_loader = torch.utils.data.DataLoader(datasets.MNIST("data", train=True, download=True, transform=tfm), batch_size=64, shuffle=True)
test_loader = torch.utils.data.DataLoader(datasets.MNIST("data", train=False, transform=tfm), batch_size=1000)

model = Net()
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.5)


def train(epoch):
    model.train()
    for data, target in train_loader:
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
    print("epoch", epoch, "last loss", loss.item())


def test():
    model.eval()
    test_loss, correct = 0.0, 0
    for data, target in test_loader:
        data, target = Variable(data, volatile=True), Variable(target)  # expect: volatile-variable
        output = model(data)
        test_loss += F.nll_loss(output, target, reduction="sum").item()
        correct += output.argmax(dim=1).eq(target).sum().item()
    print("test loss", test_loss / len(test_loader.dataset), "correct", correct)


for ep in range(1, 4):
    train(ep)
    test()
