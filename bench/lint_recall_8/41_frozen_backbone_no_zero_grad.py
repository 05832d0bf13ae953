# Source: https://github.com/udacity/deep-learning-v2-pytorch/pull/160
# Pitfall: the transfer-learning loop runs backward() and optimizer.step() every batch but never
# zeroes the gradients, so each step applies the sum of all previous batches' gradients.
# Reproduced in our own words, not the original code.
import torch
from torch import nn, optim
from torch.utils.data import DataLoader
from torchvision import datasets, models, transforms

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

tfm_train = transforms.Compose([
    transforms.RandomResizedCrop(224),
    transforms.RandomHorizontalFlip(),
    transforms.ToTensor(),
    transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
])
tfm_eval = transforms.Compose([
    transforms.Resize(255),
    transforms.CenterCrop(224),
    transforms.ToTensor(),
    transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
])

train_set = datasets.ImageFolder("flowers/train", transform=tfm_train)
valid_set = datasets.ImageFolder("flowers/valid", transform=tfm_eval)
train_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4, pin_memory=True)
valid_loader = DataLoader(valid_set, batch_size=64, num_workers=4, pin_memory=True)

net = models.densenet121(weights="DEFAULT")
for p in net.parameters():
    p.requires_grad = False
net.classifier = nn.Sequential(
    nn.Linear(1024, 256), nn.ReLU(), nn.Dropout(0.2), nn.Linear(256, len(train_set.classes))
)
net.to(device)

loss_fn = nn.CrossEntropyLoss()
opt = optim.Adam(net.classifier.parameters(), lr=3e-3)

for epoch in range(5):
    net.train()
    seen_loss = 0.0
    for imgs, labels in train_loader:
        imgs, labels = imgs.to(device), labels.to(device)
        logits = net(imgs)
        loss = loss_fn(logits, labels)
        loss.backward()  # expect: gradients-never-cleared
        opt.step()
        seen_loss += loss.item()

    net.eval()
    hits, val_loss = 0, 0.0
    with torch.no_grad():
        for imgs, labels in valid_loader:
            imgs, labels = imgs.to(device), labels.to(device)
            logits = net(imgs)
            val_loss += loss_fn(logits, labels).item()
            hits += (logits.argmax(1) == labels).sum().item()
    print(f"epoch {epoch}: train {seen_loss / len(train_loader):.3f} "
          f"val {val_loss / len(valid_loader):.3f} acc {hits / len(valid_set):.3f}")
