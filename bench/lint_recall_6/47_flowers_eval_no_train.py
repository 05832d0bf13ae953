# Source: https://github.com/udacity/deep-learning-v2-pytorch/pull/397
# Pitfall: adding model.eval() for the validation pass without a matching model.train() leaves dropout
#   disabled for every later training epoch; the reviewer asks for model.train() to be added back.
# Reproduced in our own words, not the original code.
import torch
from torch import nn, optim
from torch.utils.data import DataLoader


def build_classifier():
    return nn.Sequential(
        nn.Linear(784, 256), nn.ReLU(), nn.Dropout(p=0.2),
        nn.Linear(256, 64), nn.ReLU(), nn.Dropout(p=0.2),
        nn.Linear(64, 10), nn.LogSoftmax(dim=1),
    )


def train_and_validate(trainset, testset, epochs=10):
    trainloader = DataLoader(trainset, batch_size=64, shuffle=True)
    testloader = DataLoader(testset, batch_size=64, shuffle=False)
    model = build_classifier()
    criterion = nn.NLLLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.003)
    model.train()
    for e in range(epochs):
        running = 0.0
        for images, labels in trainloader:
            optimizer.zero_grad()
            loss = criterion(model(images.view(images.shape[0], -1)), labels)
            loss.backward()
            optimizer.step()
            running += loss.item()
        test_loss, accuracy = 0.0, 0.0
        model.eval()  # expect: train-mode-not-restored
        with torch.no_grad():
            for images, labels in testloader:
                log_ps = model(images.view(images.shape[0], -1))
                test_loss += criterion(log_ps, labels).item()
                accuracy += (log_ps.argmax(dim=1) == labels).float().mean().item()
        print(e, running / max(len(trainloader), 1), test_loss / max(len(testloader), 1))
    return model
