"""A small Keras-like wrapper around a PyTorch network: fit / evaluate / predict."""
import numpy as np
import torch
from torch.autograd import Variable


class Model:
    def __init__(self, network, optimizer, loss_function, device="cpu"):
        self.network = network.to(device)
        self.optimizer = optimizer
        self.loss_function = loss_function
        self.device = device

    def _to_tensor(self, array):
        return torch.as_tensor(np.asarray(array), dtype=torch.float32, device=self.device)

    def fit_on_batch(self, x, y):
        self.network.train()
        x, y = self._to_tensor(x), self._to_tensor(y)
        self.optimizer.zero_grad()
        loss = self.loss_function(self.network(x), y)
        loss.backward()
        self.optimizer.step()
        return float(loss)

    def fit(self, x, y, batch_size=32, epochs=10):
        n = len(x)
        for epoch in range(epochs):
            order = np.random.permutation(n)
            losses = [self.fit_on_batch(x[order[i:i + batch_size]], y[order[i:i + batch_size]])
                      for i in range(0, n, batch_size)]
            print(f"epoch {epoch}: loss {np.mean(losses):.4f}")

    def evaluate(self, x, y, batch_size=256):
        self.network.eval()
        losses = []
        with torch.no_grad():
            for i in range(0, len(x), batch_size):
                xb, yb = self._to_tensor(x[i:i + batch_size]), self._to_tensor(y[i:i + batch_size])
                losses.append(float(self.loss_function(self.network(xb), yb)))
        return float(np.mean(losses))

    def predict_on_batch(self, x):
        self.network.eval()
        x = Variable(self._to_tensor(x), volatile=True)  # expect: volatile-variable
        return self.network(x).cpu().data.numpy()

    def predict(self, x, batch_size=256):
        return np.concatenate([self.predict_on_batch(x[i:i + batch_size]) for i in range(0, len(x), batch_size)])
