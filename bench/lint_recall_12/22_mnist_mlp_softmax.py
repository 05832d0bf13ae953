import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

batch_size = 32
learning_rate = 1e-2
num_epoches = 20


class Neuralnetwork(nn.Module):
    def __init__(self, in_dim, n_hidden_1, n_hidden_2, out_dim):
        super().__init__()
        self.layer1 = nn.Linear(in_dim, n_hidden_1)
        self.layer2 = nn.Linear(n_hidden_1, n_hidden_2)
        self.layer3 = nn.Linear(n_hidden_2, out_dim)

    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        x = self.layer3(x)
        x = F.softmax(x)  # expect: softmax-before-cross-entropy, softmax-without-dim
        return x


train_dataset = datasets.MNIST(root="./data", train=True, transform=transforms.ToTensor(), download=True)
train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)

model = Neuralnetwork(28 * 28, 300, 100, 10)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=learning_rate)

for epoch in range(num_epoches):
    running_loss = 0.0
    running_acc = 0.0
    for img, label in train_loader:
        img = img.view(img.size(0), -1)
        out = model(img)
        loss = criterion(out, label)
        running_loss += loss.item() * label.size(0)
        pred = out.argmax(dim=1)
        running_acc += (pred == label).float().sum().item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}: loss {running_loss / len(train_dataset):.6f} acc {running_acc / len(train_dataset):.6f}")
