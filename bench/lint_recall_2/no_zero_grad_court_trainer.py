# Source: https://github.com/yastrebksv/TennisCourtDetector/issues/7
# Pitfall: The base trainer computes the heatmap loss, calls backward() and steps the optimizer without ever calling optimizer.zero_grad(), so gradients pile up across iterations.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def train_one_epoch(model, train_loader, optimizer, criterion, device, epoch, max_iters=1000):
    model.train()
    losses = []
    for iter_id, batch in enumerate(train_loader):
        images = batch[0].float().to(device)
        heatmaps = batch[1].float().to(device)
        out = model(images)
        loss = criterion(torch.sigmoid(out), heatmaps)
        loss.backward()
        optimizer.step()  # expect: gradients-never-cleared
        losses.append(loss.item())
        if iter_id > max_iters:
            break
    print(f"epoch {epoch}: mean loss {sum(losses) / max(len(losses), 1):.5f}")
    return losses


def main(model, train_loader, device, epochs=10):
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-5, betas=(0.9, 0.999))
    model.to(device)
    for epoch in range(epochs):
        train_one_epoch(model, train_loader, optimizer, criterion, device, epoch)
