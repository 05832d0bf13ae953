"""scikit-learn style wrapper around a torch module whose forward returns class probabilities."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ClassifierModule(nn.Module):
    def __init__(self, n_in=784, n_hidden=98, n_out=10, dropout=0.5):
        super().__init__()
        self.hidden = nn.Linear(n_in, n_hidden)
        self.dropout = nn.Dropout(dropout)
        self.output = nn.Linear(n_hidden, n_out)

    def forward(self, X):
        X = F.relu(self.hidden(X))
        X = self.dropout(X)
        return F.softmax(self.output(X), dim=-1)


class NeuralNetClassifier:
    def __init__(self, module, lr=0.01, max_epochs=10, batch_size=128):
        self.module_ = module
        self.criterion_ = nn.NLLLoss()
        self.optimizer_ = torch.optim.Adam(module.parameters(), lr=lr)
        self.max_epochs, self.batch_size = max_epochs, batch_size

    def get_loss(self, y_pred, y_true):
        y_pred_log = torch.log(y_pred)  # expect: log-of-softmax
        return self.criterion_(y_pred_log, y_true)

    def fit(self, X, y):
        X, y = torch.as_tensor(X, dtype=torch.float32), torch.as_tensor(y, dtype=torch.long)
        for epoch in range(self.max_epochs):
            self.module_.train()
            perm = torch.randperm(len(X))
            for i in range(0, len(X), self.batch_size):
                idx = perm[i:i + self.batch_size]
                self.optimizer_.zero_grad()
                loss = self.get_loss(self.module_(X[idx]), y[idx])
                loss.backward()
                self.optimizer_.step()
        return self

    def predict_proba(self, X):
        self.module_.eval()
        with torch.no_grad():
            return self.module_(torch.as_tensor(X, dtype=torch.float32)).numpy()

    def predict(self, X):
        return np.argmax(self.predict_proba(X), axis=1)
