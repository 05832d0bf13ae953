# Source: https://github.com/MorvanZhou/PyTorch-Tutorial/commit/921b69a5820ebfbfdd5b6307ebd077c8f56459e7
# Pitfall: the held-out digits are wrapped as Variable(..., volatile=True) to skip gradient tracking, but the
#   flag has done nothing since PyTorch 0.4, so every periodic test forward pass still builds a graph.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.utils.data as Data
import torchvision
from torch.autograd import Variable

EPOCH, BATCH_SIZE, LR = 1, 50, 0.001

train_data = torchvision.datasets.MNIST(root="./mnist/", train=True,
                                        transform=torchvision.transforms.ToTensor(), download=True)
train_loader = Data.DataLoader(dataset=train_data, batch_size=BATCH_SIZE, shuffle=True)
test_data = torchvision.datasets.MNIST(root="./mnist/", train=False)
test_x = Variable(torch.unsqueeze(test_data.data, dim=1), volatile=True).type(torch.FloatTensor)[:2000] / 255.0  # expect: volatile-variable
test_y = test_data.targets[:2000]


class ConvClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(1, 16, 5, 1, 2), nn.ReLU(), nn.MaxPool2d(2))
        self.block2 = nn.Sequential(nn.Conv2d(16, 32, 5, 1, 2), nn.ReLU(), nn.MaxPool2d(2))
        self.out = nn.Linear(32 * 7 * 7, 10)

    def forward(self, x):
        x = self.block2(self.block1(x))
        return self.out(x.view(x.size(0), -1))


cnn = ConvClassifier()
optimizer = torch.optim.Adam(cnn.parameters(), lr=LR)
loss_func = nn.CrossEntropyLoss()

for epoch in range(EPOCH):
    for step, (b_x, b_y) in enumerate(train_loader):
        output = cnn(b_x)
        loss = loss_func(output, b_y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            test_output = cnn(test_x)  # expect: validation-in-train-mode
            pred_y = torch.max(test_output, 1)[1]
            accuracy = (pred_y == test_y).float().mean().item()
            print("Epoch:", epoch, "| loss: %.4f" % loss.item(), "| test acc: %.2f" % accuracy)
