"""Beginner CNN on MNIST: train, then evaluate each epoch with the legacy Variable API."""
import torch
from torch import nn, optim
from torch.autograd import Variable
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

batch_size, learning_rate, num_epochs = 128, 1e-2, 5
train_dataset = datasets.MNIST("./data", train=True, transform=transforms.ToTensor(), download=True)
test_dataset = datasets.MNIST("./data", train=False, transform=transforms.ToTensor())
train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True, num_workers=2)
test_loader = DataLoader(test_dataset, batch_size=batch_size, shuffle=False, num_workers=2)


class Cnn(nn.Module):
    def __init__(self, in_dim, n_class):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(in_dim, 6, 3, padding=1), nn.ReLU(True), nn.MaxPool2d(2),
                                  nn.Conv2d(6, 16, 5), nn.ReLU(True), nn.MaxPool2d(2))
        self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, n_class))

    def forward(self, x):
        return self.fc(self.conv(x).view(x.size(0), -1))


use_gpu = torch.cuda.is_available()
model = Cnn(1, 10).cuda() if use_gpu else Cnn(1, 10)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=learning_rate)

for epoch in range(num_epochs):
    model.train()
    for img, label in train_loader:
        if use_gpu:
            img, label = img.cuda(), label.cuda()
        out = model(img)
        loss = criterion(out, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    eval_loss, eval_acc = 0.0, 0
    for img, label in test_loader:
        img = Variable(img, volatile=True)  # expect: volatile-variable
        if use_gpu:
            img, label = img.cuda(), label.cuda()
        out = model(img)
        eval_loss += criterion(out, label).item() * label.size(0)
        eval_acc += (out.argmax(1) == label).sum().item()
    print(epoch, eval_loss / len(test_dataset), eval_acc / len(test_dataset))
