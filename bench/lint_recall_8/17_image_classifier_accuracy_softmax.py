# Source: https://github.com/falloutdurham/beginners-pytorch-deep-learning/issues/7
# Pitfall: the validation accuracy calls F.softmax(output) without dim; the implicit choice is
# deprecated and picks the wrong axis for some shapes (the book's repo then also got the dim wrong).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SimpleNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(12288, 84)
        self.fc2 = nn.Linear(84, 50)
        self.fc3 = nn.Linear(50, 2)

    def forward(self, x):
        x = x.view(-1, 12288)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def train(model, optimizer, loss_fn, train_loader, val_loader, epochs=3, device="cpu"):
    for epoch in range(epochs):
        training_loss = 0.0
        model.train()
        for inputs, targets in train_loader:
            optimizer.zero_grad()
            output = model(inputs.to(device))
            loss = loss_fn(output, targets.to(device))
            loss.backward()
            optimizer.step()
            training_loss += loss.item() * inputs.size(0)
        training_loss /= len(train_loader.dataset)

        model.eval()
        num_correct, num_examples, valid_loss = 0, 0, 0.0
        with torch.no_grad():
            for inputs, targets in val_loader:
                output = model(inputs.to(device))
                targets = targets.to(device)
                valid_loss += loss_fn(output, targets).item() * inputs.size(0)
                probs = F.softmax(output)  # expect: softmax-without-dim
                correct = torch.eq(torch.max(probs, dim=1)[1], targets).view(-1)
                num_correct += torch.sum(correct).item()
                num_examples += correct.shape[0]
        valid_loss /= len(val_loader.dataset)
        print(f"Epoch {epoch}: train {training_loss:.2f} val {valid_loss:.2f} acc {num_correct / num_examples:.2f}")


if __name__ == "__main__":
    imgs = torch.rand(64, 3, 64, 64)
    labels = torch.randint(0, 2, (64,))
    train_loader = DataLoader(TensorDataset(imgs, labels), batch_size=16, shuffle=True)
    val_loader = DataLoader(TensorDataset(imgs[:16], labels[:16]), batch_size=16)
    net = SimpleNet()
    train(net, torch.optim.Adam(net.parameters(), lr=1e-3), nn.CrossEntropyLoss(), train_loader, val_loader)
