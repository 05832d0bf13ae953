# Source: https://github.com/fredzzhang/atlas/pull/26
# Pitfall: Few-shot adaptation uses gradient accumulation (optimizer steps every k batches) but the loss
# is not normalised by k, so the effective learning rate is k times larger than configured.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def adapt(model, loader, optimizer, scheduler, accum, epochs, device):
    model.train()
    for epoch in range(epochs):
        for i, (images, labels) in enumerate(loader):
            images, labels = images.to(device), labels.to(device)
            logits = model(images)
            loss = F.cross_entropy(logits, labels)
            loss.backward()  # expect: accumulation-not-averaged
            if (i + 1) % accum == 0:
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
    return model
