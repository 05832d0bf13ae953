"""Variational RNN on binarised MNIST sequences."""
import torch
import torch.nn as nn

clip = 10
learning_rate = 1e-3
print_every = 100


def train(model, optimizer, train_loader, epoch, device="cpu"):
    train_loss = 0.0
    model.train()
    for batch_idx, (data, _) in enumerate(train_loader):
        data = data.to(device).squeeze().transpose(0, 1)
        data = (data > 0.5).float()
        optimizer.zero_grad()
        kld_loss, nll_loss, _, _ = model(data)
        loss = kld_loss + nll_loss
        loss.backward()
        optimizer.step()
        nn.utils.clip_grad_norm_(model.parameters(), clip)  # expect: clip-after-step
        train_loss += loss.item()
        if batch_idx % print_every == 0:
            print(f"epoch {epoch} [{batch_idx}] kld {kld_loss.item():.4f} nll {nll_loss.item():.4f}")
    return train_loss / len(train_loader.dataset)


def fit(model, train_loader, n_epochs=100):
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    for epoch in range(1, n_epochs + 1):
        avg = train(model, optimizer, train_loader, epoch)
        print(f"====> epoch {epoch} average loss {avg:.4f}")
