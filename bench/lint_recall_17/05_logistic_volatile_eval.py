"""Logistic regression on MNIST, old-style evaluation with Variables."""
import torch
from torch import nn, optim
from torch.autograd import Variable
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

batch_size = 64
learning_rate = 1e-3
num_epochs = 20
use_gpu = torch.cuda.is_available()

train_dataset = datasets.MNIST("./data", train=True, transform=transforms.ToTensor(), download=True)
test_dataset = datasets.MNIST("./data", train=False, transform=transforms.ToTensor())
train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True, num_workers=4, pin_memory=use_gpu)
test_loader = DataLoader(test_dataset, batch_size=batch_size, shuffle=False, num_workers=4, pin_memory=use_gpu)


class Logistic(nn.Module):
    def __init__(self, in_dim, n_class):
        super().__init__()
        self.logistic = nn.Linear(in_dim, n_class)

    def forward(self, x):
        return self.logistic(x)


model = Logistic(28 * 28, 10)
if use_gpu:
    model = model.cuda()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=learning_rate)

for epoch in range(num_epochs):
    model.train()
    for img, label in train_loader:
        img = img.view(img.size(0), -1)
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
        img = img.view(img.size(0), -1)
        img = Variable(img, volatile=True)  # expect: volatile-variable
        if use_gpu:
            img, label = img.cuda(), label.cuda()
        out = model(img)
        eval_loss += criterion(out, label).item() * label.size(0)
        eval_acc += (out.argmax(1) == label).sum().item()
    print(f"epoch {epoch + 1}: test loss {eval_loss / len(test_dataset):.6f}, acc {eval_acc / len(test_dataset):.4f}")
