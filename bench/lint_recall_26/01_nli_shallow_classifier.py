"""Shallow softmax classifier with early stopping on a dev split (sklearn-style API)."""
import numpy as np
import torch
import torch.nn as nn
import torch.utils.data


class ShallowNet(nn.Module):
    def __init__(self, n_in, n_hidden, n_classes, dropout=0.3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, n_hidden),
            nn.Tanh(),
            nn.Dropout(dropout),
            nn.Linear(n_hidden, n_classes),
        )

    def forward(self, x):
        return self.body(x)


class TorchShallowClassifier:
    def __init__(self, hidden_dim=64, max_iter=50, eta=0.01, batch_size=128, patience=5):
        self.hidden_dim = hidden_dim
        self.max_iter = max_iter
        self.eta = eta
        self.batch_size = batch_size
        self.patience = patience
        self.device = "cuda" if torch.cuda.is_available() else "cpu"

    def _dev_accuracy(self, X_dev, y_dev):
        self.model.eval()  # expect: train-mode-not-restored
        with torch.no_grad():
            logits = self.model(torch.tensor(X_dev, dtype=torch.float, device=self.device))
            preds = logits.argmax(dim=1).cpu().numpy()
        return float((preds == np.asarray(y_dev)).mean())

    def fit(self, X, y, X_dev, y_dev):
        self.classes_ = sorted(set(y))
        self.n_classes_ = len(self.classes_)
        class2index = {c: i for i, c in enumerate(self.classes_)}
        y_idx = [class2index[c] for c in y]
        y_dev_idx = [class2index[c] for c in y_dev]
        dataset = torch.utils.data.TensorDataset(
            torch.tensor(X, dtype=torch.float), torch.tensor(y_idx, dtype=torch.long))
        loader = torch.utils.data.DataLoader(dataset, batch_size=self.batch_size, shuffle=True)
        self.model = ShallowNet(X.shape[1], self.hidden_dim, self.n_classes_).to(self.device)
        self.model.train()
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.eta)
        best, bad_epochs = -1.0, 0
        for epoch in range(1, self.max_iter + 1):
            epoch_loss = 0.0
            for X_batch, y_batch in loader:
                X_batch, y_batch = X_batch.to(self.device), y_batch.to(self.device)
                optimizer.zero_grad()
                loss = criterion(self.model(X_batch), y_batch)
                loss.backward()
                optimizer.step()
                epoch_loss += loss.item()
            score = self._dev_accuracy(X_dev, y_dev_idx)
            if score > best:
                best, bad_epochs = score, 0
            else:
                bad_epochs += 1
            if bad_epochs >= self.patience:
                break
        return self

    def predict_proba(self, X):
        self.model.eval()
        with torch.no_grad():
            X = torch.tensor(X, dtype=torch.float, device=self.device)
            return torch.softmax(self.model(X), dim=1).cpu().numpy()

    def predict(self, X):
        probs = self.predict_proba(X)
        return [self.classes_[i] for i in probs.argmax(axis=1)]
