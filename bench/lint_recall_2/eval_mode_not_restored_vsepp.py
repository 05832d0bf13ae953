# Source: https://github.com/fartashf/vsepp/issues/4
# Pitfall: validate() switches the encoders to eval mode every val_step iterations, but the loop only switches back to training mode at the start of the next epoch, so dropout and batch norm train in eval mode for the rest of the epoch.
# Reproduced in our own words, not the original code.
import torch


def validate(val_loader, model):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for images, captions in val_loader:
            img_emb, cap_emb = model(images, captions)
            total += (img_emb * cap_emb).sum(dim=1).mean().item()
    return total / max(len(val_loader), 1)


def train_epochs(model, optimizer, criterion, train_loader, val_loader, epochs, val_step=500):
    iteration = 0
    for epoch in range(epochs):
        model.train()
        for images, captions in train_loader:
            img_emb, cap_emb = model(images, captions)
            loss = criterion(img_emb, cap_emb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            iteration += 1
            if iteration % val_step == 0:
                score = validate(val_loader, model)  # expect: train-mode-not-restored
                print(f"iter {iteration}: rsum {score:.3f}")
