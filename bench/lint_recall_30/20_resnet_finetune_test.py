"""Fine-tune a small ResNet on CIFAR-10, then report test accuracy."""
import torch
import torch.nn as nn
import torchvision
import torchvision.transforms as transforms
from torch.utils.data import DataLoader

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
transform = transforms.Compose([transforms.Pad(4), transforms.RandomHorizontalFlip(),
                                transforms.RandomCrop(32), transforms.ToTensor()])
train_dataset = torchvision.datasets.CIFAR10(root="data", train=True, transform=transform, download=True)
test_dataset = torchvision.datasets.CIFAR10(root="data", train=False, transform=transforms.ToTensor())
train_loader = DataLoader(train_dataset, batch_size=100, shuffle=True, num_workers=4, pin_memory=True)
test_loader = DataLoader(test_dataset, batch_size=100, shuffle=False, num_workers=4, pin_memory=True)

model = torchvision.models.resnet18(num_classes=10).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(20):
    model.train()
    for images, labels in train_loader:
        images, labels = images.to(device), labels.to(device)
        loss = criterion(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}: loss {loss.item():.4f}")

correct, total = 0, 0
with torch.no_grad():  # expect: validation-in-train-mode
    for images, labels in test_loader:
        images, labels = images.to(device), labels.to(device)
        predicted = model(images).argmax(1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
print(f"test accuracy: {100 * correct / total:.2f}%")
torch.save(model.state_dict(), "resnet.ckpt")
