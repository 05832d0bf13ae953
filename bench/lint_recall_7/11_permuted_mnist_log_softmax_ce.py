# Source: https://github.com/ContinualAI/colab/pull/4
# Pitfall: the continual-learning notebook's model returns log_softmax outputs that are then passed
#   to F.cross_entropy, which applies log_softmax a second time.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torchvision import datasets, transforms


class MLP(nn.Module):
    def __init__(self, hidden=400):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, 10)

    def forward(self, x):
        x = F.relu(self.fc1(x.view(-1, 28 * 28)))
        x = F.relu(self.fc2(x))
        return F.log_softmax(self.fc3(x), dim=1)  # expect: softmax-before-cross-entropy


def permute(images, perm):
    flat = images.view(images.size(0), -1)
    return flat[:, perm]


def train_task(model, device, x_train, y_train, optimizer, perm, epoch, bs=128):
    model.train()
    order = torch.randperm(x_train.size(0))
    for start in range(0, x_train.size(0), bs):
        idx = order[start:start + bs]
        data = permute(x_train[idx], perm).to(device)
        target = y_train[idx].to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.cross_entropy(output, target)
        loss.backward()
        optimizer.step()
    print(f"Train Epoch: {epoch} \tLoss: {loss.item():.6f}")


def test_task(model, device, x_test, y_test, perm):
    model.eval()
    with torch.no_grad():
        output = model(permute(x_test, perm).to(device))
        pred = output.argmax(dim=1)
        return (pred.cpu() == y_test).float().mean().item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tf = transforms.ToTensor()
    train = datasets.MNIST("data", train=True, download=True, transform=tf)
    test = datasets.MNIST("data", train=False, download=True, transform=tf)
    x_train, y_train = train.data.float() / 255.0, train.targets
    x_test, y_test = test.data.float() / 255.0, test.targets

    model = MLP().to(device)
    optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    perms = [torch.randperm(28 * 28) for _ in range(3)]
    for task_id, perm in enumerate(perms):
        for epoch in range(1, 3):
            train_task(model, device, x_train, y_train, optimizer, perm, epoch)
        accs = [test_task(model, device, x_test, y_test, p) for p in perms[: task_id + 1]]
        print(f"after task {task_id}: accuracies {accs}")
