"""A small Keras-like wrapper around a PyTorch module with fit/evaluate helpers."""
import numpy as np
import torch


class Model:
    def __init__(self, model, optimizer, loss_function, metrics=()):
        self.model = model
        self.optimizer = optimizer
        self.loss_function = loss_function
        self.metrics = list(metrics)

    def _compute_loss_and_metrics(self, x, y, return_pred=False):
        with torch.no_grad():
            pred_y = self.model(x)  # expect: validation-in-train-mode
            loss = float(self.loss_function(pred_y, y))
            metrics = np.array([float(m(pred_y, y)) for m in self.metrics])
        if return_pred:
            return loss, metrics, pred_y.cpu().numpy()
        return loss, metrics

    def train_on_batch(self, x, y):
        self.model.train()
        self.optimizer.zero_grad()
        pred_y = self.model(x)
        loss = self.loss_function(pred_y, y)
        loss.backward()
        self.optimizer.step()
        return float(loss)

    def evaluate(self, x, y, return_pred=False):
        return self._compute_loss_and_metrics(x, y, return_pred=return_pred)

    def fit(self, train_generator, valid_generator, epochs=10):
        history = []
        for epoch in range(1, epochs + 1):
            losses = [self.train_on_batch(x, y) for x, y in train_generator]
            val = [self.evaluate(x, y)[0] for x, y in valid_generator]
            logs = {"epoch": epoch, "loss": float(np.mean(losses)), "val_loss": float(np.mean(val))}
            history.append(logs)
            print(logs)
        return history
