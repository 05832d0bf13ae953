# Source: https://github.com/WenjieDu/PyPOTS/pull/668
# Pitfall: early stopping remembers the best epoch as self.model.state_dict() without a copy; the dict holds
#   references to the live parameters, so the "best" weights keep changing and the final model is the last one.
# Reproduced in our own words, not the original code.
import copy
import torch


class ImputerTrainer:
    def __init__(self, model, optimizer, patience=10, device="cpu"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.patience = patience
        self.device = device
        self.best_loss = float("inf")
        self.best_model_dict = None

    def _masked_mae(self, pred, target, mask):
        return (torch.abs(pred - target) * mask).sum() / (mask.sum() + 1e-12)

    def _run_val(self, val_loader):
        self.model.eval()
        total, n = 0.0, 0
        with torch.no_grad():
            for x, x_true, ind_mask in val_loader:
                x, x_true, ind_mask = x.to(self.device), x_true.to(self.device), ind_mask.to(self.device)
                total += self._masked_mae(self.model(x), x_true, ind_mask).item()
                n += 1
        self.model.train()
        return total / max(n, 1)

    def fit(self, train_loader, val_loader, epochs=100):
        waited = 0
        for epoch in range(epochs):
            self.model.train()
            for x, x_true, ind_mask in train_loader:
                x, x_true, ind_mask = x.to(self.device), x_true.to(self.device), ind_mask.to(self.device)
                loss = self._masked_mae(self.model(x), x_true, ind_mask)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            val_loss = self._run_val(val_loader)
            if val_loss < self.best_loss:
                self.best_loss = val_loss
                self.best_model_dict = self.model.state_dict()  # expect: state-dict-not-copied
                waited = 0
            else:
                waited += 1
                if waited >= self.patience:
                    print(f"early stop at epoch {epoch}, best val MAE {self.best_loss:.4f}")
                    break
        self.model.load_state_dict(self.best_model_dict)
        return copy.deepcopy(self.model)
