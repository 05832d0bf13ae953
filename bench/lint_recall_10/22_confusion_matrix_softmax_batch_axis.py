# Source: https://github.com/mrdbourke/pytorch-deep-learning/commit/a826986c6a424a2ecb700cc2507ef966ee53e863
# Pitfall: the predictions for the confusion matrix take softmax over dim=0 (the batch) and then argmax
#   over dim=1, so each image's predicted class depends on the other images in its batch.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
from torchmetrics import ConfusionMatrix


class TinyVGG(nn.Module):
    def __init__(self, in_ch=1, hidden=10, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_ch, hidden, 3, padding=1), nn.ReLU(),
            nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(hidden * 7 * 7, n_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


def predict_all(model, loader, device):
    preds = []
    model.eval()
    with torch.inference_mode():
        for X, _ in loader:
            X = X.to(device)
            y_logit = model(X)
            y_pred = torch.softmax(y_logit.squeeze(), dim=0).argmax(dim=1)  # expect: softmax-over-batch-dim
            preds.append(y_pred.cpu())
    return torch.cat(preds)


def confusion(model, loader, targets, class_names, device="cpu"):
    y_pred_tensor = predict_all(model, loader, device)
    confmat = ConfusionMatrix(task="multiclass", num_classes=len(class_names))
    return confmat(preds=y_pred_tensor, target=targets)
