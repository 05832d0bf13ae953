# Source: https://github.com/fartashf/vsepp/issues/4
# Pitfall: validation runs every val_step iterations and puts the model in eval mode; train
# mode comes back only at the next epoch, so most of each epoch trains without dropout/BN updates.
# Reproduced in our own words, not the original code.
import torch


def validate(model, val_loader):
    model.eval()  # expect: train-mode-not-restored
    with torch.no_grad():
        return sum(model.score(x).mean().item() for x in val_loader)


def train(model, optimizer, train_loader, val_loader, epochs, val_step=500):
    step = 0
    for epoch in range(epochs):
        model.train()
        for images, captions in train_loader:
            optimizer.zero_grad()
            loss = model.contrastive_loss(images, captions)
            loss.backward()
            optimizer.step()
            step += 1
            if step % val_step == 0:
                validate(model, val_loader)
