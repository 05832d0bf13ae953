# Source: https://github.com/WMD-group/SMACT/pull/601
# Pitfall: The early-stopping loop saves the best weights with model.state_dict().copy(); dict.copy() is
# shallow, the tensors are still shared with the model, so restoring them restores the final weights.
# Reproduced in our own words, not the original code.
import torch


def train_roost(model, train_loader, val_loader, criterion, epochs=200, patience=20, device="cpu"):
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=5)
    best_val_loss = float("inf")
    best_state_dict = None
    epochs_without_improvement = 0
    for epoch in range(epochs):
        model.train()
        for inputs, target in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(*inputs), target)
            loss.backward()
            optimizer.step()
        model.eval()
        val_loss = 0.0
        with torch.no_grad():
            for inputs, target in val_loader:
                val_loss += criterion(model(*inputs), target).item()
        val_loss /= len(val_loader)
        scheduler.step(val_loss)
        if val_loss < best_val_loss:
            best_val_loss = val_loss
            best_state_dict = model.state_dict().copy()  # expect: state-dict-not-copied
            epochs_without_improvement = 0
        else:
            epochs_without_improvement += 1
            if epochs_without_improvement >= patience:
                break
    model.load_state_dict(best_state_dict)
    return model
