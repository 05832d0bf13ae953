# Source: https://github.com/bytetriper/RAE/issues/67
# Pitfall: With gradient accumulation, optimizer.zero_grad() sits inside the micro-batch loop, so every micro-batch wipes the gradients of the previous ones and the step only sees the last micro-batch.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def train_step(model, optimizer, batch, accum_steps=4):
    model.train()
    images, targets = batch
    micro_images = images.chunk(accum_steps)
    micro_targets = targets.chunk(accum_steps)
    total = 0.0
    for x, y in zip(micro_images, micro_targets):
        optimizer.zero_grad(set_to_none=True)  # expect: grad-cleared-before-step
        recon = model(x)
        loss = F.mse_loss(recon, y) / accum_steps
        loss.backward()
        total += loss.item()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    return total


def run(model, loader, epochs=1, lr=2e-4):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    for epoch in range(epochs):
        for batch in loader:
            loss_value = train_step(model, optimizer, batch)
        print(f"epoch {epoch} last loss {loss_value:.4f}")
