# Source: https://github.com/sicara/easy-few-shot-learning/pull/129
# Pitfall: The episodic training notebook keeps best_state = model.state_dict(), a reference to the
# live tensors; later epochs overwrite it and the "best" checkpoint is really the last, overfitted one.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


def evaluate(model, loader, device):
    model.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for support_x, support_y, query_x, query_y, _ in loader:
            model.process_support_set(support_x.to(device), support_y.to(device))
            pred = model(query_x.to(device)).argmax(-1)
            correct += (pred == query_y.to(device)).sum().item()
            total += len(query_y)
    return correct / total


def train(model, train_loader, val_loader, n_epochs, device):
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    best_acc, best_state = 0.0, None
    for epoch in range(n_epochs):
        model.train()
        for images, labels in train_loader:
            optimizer.zero_grad()
            loss = loss_fn(model(images.to(device)), labels.to(device))
            loss.backward()
            optimizer.step()
        acc = evaluate(model, val_loader, device)
        if acc > best_acc:
            best_acc = acc
            best_state = model.state_dict()  # expect: state-dict-not-copied
    if best_state is not None:
        model.load_state_dict(best_state)
    return model
