# Source: https://github.com/skorch-dev/skorch/issues/481
# Pitfall: the classifier wrapper expects the module to output softmax probabilities and computes the loss as
#          NLLLoss(torch.log(y_pred)); once a probability underflows to 0 the log is -inf and training turns to NaN.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
from torch import nn


class MNISTClassifierModule(nn.Module):
    def __init__(self, hidden=100, dropout=0.5):
        super().__init__()
        self.hidden = nn.Linear(784, hidden)
        self.dropout = nn.Dropout(dropout)
        self.output = nn.Linear(hidden, 10)

    def forward(self, X):
        X = torch.relu(self.hidden(X))
        X = self.dropout(X)
        return torch.softmax(self.output(X), dim=-1)


class ProbaClassifier:
    def __init__(self, module, lr=0.1, max_epochs=5, batch_size=128, optimizer=torch.optim.RMSprop):
        self.module_ = module
        self.criterion_ = nn.NLLLoss()
        self.optimizer_ = optimizer(self.module_.parameters(), lr=lr)
        self.max_epochs, self.batch_size = max_epochs, batch_size

    def get_loss(self, y_pred, y_true):
        return self.criterion_(torch.log(y_pred), y_true)  # expect: log-of-softmax

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
            print(epoch, loss.item())
        return self

    def predict_proba(self, X):
        self.module_.eval()
        with torch.no_grad():
            return self.module_(torch.as_tensor(X, dtype=torch.float32)).numpy()


if __name__ == "__main__":
    Xs = np.random.rand(1000, 784).astype("float32")
    ys = np.random.randint(0, 10, 1000)
    clf = ProbaClassifier(MNISTClassifierModule()).fit(Xs, ys)
    print(clf.predict_proba(Xs[:3]).argmax(1))
