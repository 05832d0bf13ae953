# Source: https://github.com/udacity/deep-learning-v2-pytorch/commit/335a5e1ba4a9ee1cc9a5e736dc4b321ef71d9d8d
# Pitfall: the transfer-learning loop for the new classifier head computes the loss, backpropagates and steps,
#   but never zeroes the gradients, so each update uses the sum of all gradients seen so far.
# Reproduced in our own words, not the original code.
from collections import OrderedDict

import torch
from torch import nn, optim
from torchvision import models

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def build_model():
    model = models.densenet121(weights="DEFAULT")
    for param in model.parameters():
        param.requires_grad = False
    model.classifier = nn.Sequential(OrderedDict([
        ("fc1", nn.Linear(1024, 500)),
        ("relu", nn.ReLU()),
        ("drop", nn.Dropout(0.2)),
        ("fc2", nn.Linear(500, 2)),
        ("output", nn.LogSoftmax(dim=1)),
    ]))
    return model.to(device)


def train(trainloader, testloader, epochs=1, print_every=5):
    model = build_model()
    criterion = nn.NLLLoss()
    optimizer = optim.Adam(model.classifier.parameters(), lr=0.003)
    steps, running_loss = 0, 0.0
    for epoch in range(epochs):
        for inputs, labels in trainloader:
            steps += 1
            inputs, labels = inputs.to(device), labels.to(device)
            logps = model.forward(inputs)
            loss = criterion(logps, labels)
            loss.backward()
            optimizer.step()  # expect: gradients-never-cleared
            running_loss += loss.item()
            if steps % print_every == 0:
                model.eval()
                test_loss, accuracy = 0.0, 0.0
                with torch.no_grad():
                    for inputs, labels in testloader:
                        inputs, labels = inputs.to(device), labels.to(device)
                        logps = model.forward(inputs)
                        test_loss += criterion(logps, labels).item()
                        top_class = torch.exp(logps).topk(1, dim=1)[1]
                        accuracy += (top_class == labels.view(*top_class.shape)).float().mean().item()
                print(f"train {running_loss / print_every:.3f} test {test_loss / len(testloader):.3f} "
                      f"acc {accuracy / len(testloader):.3f}")
                running_loss = 0.0
                model.train()
    return model
