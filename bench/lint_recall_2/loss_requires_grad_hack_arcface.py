# Source: https://github.com/ronghuaiyang/arcface-pytorch/issues/56
# Pitfall: backward() failed with "element 0 of tensors does not require grad", so the user set loss.requires_grad = True; the loss was computed from features produced without a graph, so no gradient reaches the network and accuracy stays at zero.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def train_epoch(model, metric_fc, trainloader, optimizer, device, print_freq=100):
    criterion = nn.CrossEntropyLoss()
    model.train()
    metric_fc.train()
    for ii, (data_input, label) in enumerate(trainloader):
        data_input = data_input.to(device)
        label = label.to(device).long()
        with torch.no_grad():
            feature = model(data_input)
            output = metric_fc(feature, label)
        loss = criterion(output, label)
        loss.requires_grad = True  # expect: backward-without-graph
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if ii % print_freq == 0:
            acc = (output.argmax(dim=1) == label).float().mean().item()
            print(f"iter {ii} loss {loss.item():.4f} acc {acc:.3f}")
