# Source: https://github.com/THGLab/LP-PDBBind/pull/1
# Pitfall: During DeepDTA retraining the best validation weights are stored as model.state_dict() with
# no copy, so the restored "best" model is whatever the final epoch produced.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def run_epoch(model, loader, optimizer, device):
    model.train()
    for drug, protein, affinity in loader:
        drug, protein, affinity = drug.to(device), protein.to(device), affinity.to(device)
        optimizer.zero_grad()
        loss = F.mse_loss(model(drug, protein).view(-1), affinity.view(-1))
        loss.backward()
        optimizer.step()


def val_rmse(model, loader, device):
    model.eval()
    sq, n = 0.0, 0
    with torch.no_grad():
        for drug, protein, affinity in loader:
            pred = model(drug.to(device), protein.to(device)).view(-1)
            sq += ((pred - affinity.to(device).view(-1)) ** 2).sum().item()
            n += affinity.numel()
    return (sq / n) ** 0.5


def retrain(model, train_loader, val_loader, epochs, device):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    best_rmse, best_weights = float("inf"), None
    for epoch in range(epochs):
        run_epoch(model, train_loader, optimizer, device)
        rmse = val_rmse(model, val_loader, device)
        if rmse < best_rmse:
            best_rmse = rmse
            best_weights = model.state_dict()  # expect: state-dict-not-copied
    model.load_state_dict(best_weights)
    return model, best_rmse
