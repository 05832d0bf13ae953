"""Cat-vs-fish image classifier with a simple train/validate loop (beginner book style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import torchvision
from torchvision import transforms

img_transforms = transforms.Compose([
    transforms.Resize((64, 64)),
    transforms.ToTensor(),
    transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]),
])


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


def train(model, optimizer, loss_fn, train_loader, val_loader, epochs=20, device="cpu"):
    for epoch in range(epochs):
        training_loss = 0.0
        model.train()
        for inputs, targets in train_loader:
            optimizer.zero_grad()
            inputs, targets = inputs.to(device), targets.to(device)
            loss = loss_fn(model(inputs), targets)
            loss.backward()
            optimizer.step()
            training_loss += loss.item() * inputs.size(0)
        training_loss /= len(train_loader.dataset)

        model.eval()
        num_correct, num_examples, valid_loss = 0, 0, 0.0
        with torch.no_grad():
            for inputs, targets in val_loader:
                inputs, targets = inputs.to(device), targets.to(device)
                output = model(inputs)
                valid_loss += loss_fn(output, targets).item() * inputs.size(0)
                probs = F.softmax(output)  # expect: softmax-without-dim
                correct = torch.eq(torch.max(probs, dim=1)[1], targets).view(-1)
                num_correct += torch.sum(correct).item()
                num_examples += correct.shape[0]
        valid_loss /= len(val_loader.dataset)
        print(f"Epoch {epoch}, train {training_loss:.2f}, val {valid_loss:.2f}, "
              f"acc {num_correct / num_examples:.2f}")


if __name__ == "__main__":
    train_data = torchvision.datasets.ImageFolder("./train/", transform=img_transforms)
    val_data = torchvision.datasets.ImageFolder("./val/", transform=img_transforms)
    train_loader = torch.utils.data.DataLoader(train_data, batch_size=64, shuffle=True)
    val_loader = torch.utils.data.DataLoader(val_data, batch_size=64)
    net = SimpleNet()
    train(net, optim.Adam(net.parameters(), lr=0.001), nn.CrossEntropyLoss(), train_loader, val_loader)
