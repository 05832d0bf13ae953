"""Style: the classic tutorial script (module level, CUDA, a test loop)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
train_ds = datasets.MNIST("data", train=True, download=True, transform=tf)
test_ds = datasets.MNIST("data", train=False, transform=tf)
train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)  # expect: dataloader-blocking
test_loader = DataLoader(test_ds, batch_size=1000, num_workers=2, pin_memory=True)

model = nn.Sequential(
    nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25), nn.Flatten(),
    nn.Linear(5408, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, 10), nn.Softmax(dim=1),
).to(device)
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
criterion = nn.CrossEntropyLoss()

for epoch in range(1, 15):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = criterion(output, target)  # expect: softmax-before-cross-entropy
        loss.backward()
        optimizer.step()
        if batch_idx % 100 == 0:
            print(f"epoch {epoch} [{batch_idx * len(data)}/{len(train_loader.dataset)}] loss {loss.item():.6f}")
    test_loss = 0
    correct = 0
    for data, target in test_loader:
        data, target = data.to(device), target.to(device)
        output = model(data)  # expect: validation-in-train-mode
        test_loss += F.nll_loss(torch.log(output), target, reduction="sum").item()  # expect: log-of-softmax
        correct += output.argmax(dim=1).eq(target).sum().item()
    print(f"test loss {test_loss / len(test_loader.dataset):.4f}, accuracy {correct / len(test_loader.dataset):.3f}")
