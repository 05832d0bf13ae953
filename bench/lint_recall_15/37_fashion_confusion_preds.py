"""Make predictions with a trained FashionMNIST CNN and build a confusion matrix."""
import torch
from torch import nn
from torchmetrics import ConfusionMatrix


class TinyVGG(nn.Module):
    def __init__(self, in_ch=1, hidden=10, n_classes=10):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(in_ch, hidden, 3, padding=1), nn.ReLU(),
                                    nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.block2 = nn.Sequential(nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(),
                                    nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(hidden * 7 * 7, n_classes))

    def forward(self, x):
        return self.classifier(self.block2(self.block1(x)))


def predict_all(model, test_dataloader, device):
    y_preds = []
    model.eval()
    with torch.inference_mode():
        for X, y in test_dataloader:
            X = X.to(device)
            y_logit = model(X)
            y_pred = torch.softmax(y_logit, dim=0).argmax(dim=1)  # expect: softmax-over-batch-dim
            y_preds.append(y_pred.cpu())
    return torch.cat(y_preds)


def confusion(model, test_dataloader, test_targets, class_names, device="cpu"):
    y_pred_tensor = predict_all(model, test_dataloader, device)
    confmat = ConfusionMatrix(num_classes=len(class_names), task="multiclass")
    return confmat(preds=y_pred_tensor, target=test_targets)
