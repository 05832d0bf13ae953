"""Old-style MNIST CNN script (Variable API) with a test pass after each epoch."""
import torch
from torch import nn, optim
from torch.autograd import Variable
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

batch_size = 128
num_epochs = 5

train_dataset = datasets.MNIST(root="./data", train=True, transform=transforms.ToTensor(), download=True)
test_dataset = datasets.MNIST(root="./data", train=False, transform=transforms.ToTensor())
train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)
test_loader = DataLoader(test_dataset, batch_size=batch_size, shuffle=False)


class Cnn(nn.Module):
    def __init__(self, in_dim, n_class):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(in_dim, 6, 3, stride=1, padding=1), nn.ReLU(True), nn.MaxPool2d(2, 2),
            nn.Conv2d(6, 16, 5), nn.ReLU(True), nn.MaxPool2d(2, 2))
        self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, n_class))

    def forward(self, x):
        out = self.conv(x)
        return self.fc(out.view(out.size(0), -1))


model = Cnn(1, 10)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=1e-2)

for epoch in range(num_epochs):
    model.train()
    for img, label in train_loader:
        img, label = Variable(img), Variable(label)
        loss = criterion(model(img), label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    eval_loss, eval_acc = 0.0, 0
    for img, label in test_loader:
        img = Variable(img, volatile=True)  # expect: volatile-variable
        label = Variable(label)
        with torch.no_grad():
            out = model(img)
        eval_loss += criterion(out, label).item() * label.size(0)
        eval_acc += (out.argmax(1) == label).sum().item()
    print(f"epoch {epoch}: test loss {eval_loss / len(test_dataset):.4f} acc {eval_acc / len(test_dataset):.4f}")
