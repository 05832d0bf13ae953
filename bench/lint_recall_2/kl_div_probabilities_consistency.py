# Source: https://github.com/pytorch/pytorch/issues/43348
# Pitfall: A consistency term compares two predicted distributions with F.kl_div(p, q) where p is a probability vector; kl_div treats its input as log-probabilities, so the "divergence" of identical distributions is not zero and the gradients are wrong.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def consistency_loss(model, clean, augmented):
    p_clean = F.softmax(model(clean), dim=1).detach()
    p_aug = F.softmax(model(augmented), dim=1)
    return F.kl_div(p_aug, p_clean, reduction="batchmean")  # expect: kl-div-input-not-log


def train(model, labeled_loader, unlabeled_loader, augment, epochs=10, weight=0.5):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)
    ce = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        for (x, y), u in zip(labeled_loader, unlabeled_loader):
            optimizer.zero_grad()
            loss = ce(model(x), y) + weight * consistency_loss(model, u, augment(u))
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} last loss {loss.item():.4f}")
