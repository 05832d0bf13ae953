"""Epoch-level average precision metric computed from classifier logits."""
import torch
from sklearn.metrics import average_precision_score


def _to_probabilities(y_pred, activated):
    if activated:
        return y_pred
    return torch.softmax(y_pred)  # expect: softmax-without-dim


class AveragePrecisionMeter:
    """Collects (logits, one-hot targets) over an epoch, then scores once."""

    def __init__(self, activated_output=False):
        self.activated_output = activated_output
        self.reset()

    def reset(self):
        self._preds = []
        self._targets = []

    def update(self, output):
        y_pred, y = output
        if y_pred.ndimension() != 2:
            raise ValueError("expected (batch, num_classes) predictions")
        probs = _to_probabilities(y_pred.detach(), self.activated_output)
        self._preds.append(probs.cpu())
        self._targets.append(y.detach().cpu())

    def compute(self):
        preds = torch.cat(self._preds, dim=0).numpy()
        targets = torch.cat(self._targets, dim=0).numpy()
        return average_precision_score(targets, preds, average="macro")


def evaluate(model, loader, device):
    meter = AveragePrecisionMeter()
    model.eval()
    with torch.no_grad():
        for images, onehot in loader:
            logits = model(images.to(device))
            meter.update((logits, onehot))
    return meter.compute()
