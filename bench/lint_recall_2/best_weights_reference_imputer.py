# Source: https://github.com/WenjieDu/PyPOTS/issues/667
# Pitfall: The base trainer stores self.best_model_dict = self.model.state_dict() when the validation loss improves; without a deepcopy the dict aliases the live tensors, so the restored "best" model is really the final one.
# Reproduced in our own words, not the original code.
import torch


class ImputationTrainer:
    def __init__(self, model, optimizer, patience=10):
        self.model = model
        self.optimizer = optimizer
        self.patience = patience
        self.best_loss = float("inf")
        self.best_model_dict = None

    def _train_one_epoch(self, train_loader):
        self.model.train()
        for batch in train_loader:
            self.optimizer.zero_grad()
            loss = self.model(batch)["loss"]
            loss.backward()
            self.optimizer.step()

    def _validate(self, val_loader):
        self.model.eval()
        total = 0.0
        with torch.no_grad():
            for batch in val_loader:
                total += self.model(batch)["loss"].item()
        return total / max(len(val_loader), 1)

    def fit(self, train_loader, val_loader, epochs=100):
        waited = 0
        for epoch in range(epochs):
            self._train_one_epoch(train_loader)
            val_loss = self._validate(val_loader)
            if val_loss < self.best_loss:
                self.best_loss = val_loss
                self.best_model_dict = self.model.state_dict()  # expect: state-dict-not-copied
                waited = 0
            else:
                waited += 1
                if waited >= self.patience:
                    break
        self.model.load_state_dict(self.best_model_dict)
