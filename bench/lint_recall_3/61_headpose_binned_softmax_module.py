# Source: https://github.com/natanielruiz/deep-head-pose/issues/118
# Pitfall: The head-pose training script builds nn.Softmax() without dim to turn the 66 angle-bin logits
# into an expected angle; PyTorch warns about the implicit dimension choice.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def train_hopenet(model, loader, optimizer, epochs, alpha=0.001, device="cuda"):
    bin_loss = nn.CrossEntropyLoss().to(device)
    reg_loss = nn.MSELoss().to(device)
    to_probs = nn.Softmax().to(device)  # expect: softmax-without-dim
    idx = torch.arange(66, dtype=torch.float32, device=device)
    model.train()
    for epoch in range(epochs):
        for images, bins, cont in loader:
            images = images.to(device)
            bins, cont = bins.to(device), cont.to(device)
            yaw, pitch, roll = model(images)
            total = 0.0
            for k, logits in enumerate((yaw, pitch, roll)):
                expected = torch.sum(to_probs(logits) * idx, dim=1) * 3 - 99
                total = total + bin_loss(logits, bins[:, k]) + alpha * reg_loss(expected, cont[:, k])
            optimizer.zero_grad()
            total.backward()
            optimizer.step()
