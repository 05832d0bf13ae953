"""Accuracy / confusion helpers used by an evaluation engine."""
import torch


def to_onehot(indices, num_classes):
    onehot = torch.zeros(indices.size(0), num_classes)
    if indices.is_cuda:
        onehot.cuda()  # expect: tensor-op-result-discarded
    return onehot.scatter_(1, indices.unsqueeze(1), 1)


class ConfusionAccumulator:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.matrix = None

    def reset(self):
        self.matrix = torch.zeros(self.num_classes, self.num_classes)

    def update(self, logits, labels):
        if self.matrix is None:
            self.reset()
        predicted = logits.argmax(dim=1)
        pred_onehot = to_onehot(predicted, self.num_classes)
        true_onehot = to_onehot(labels, self.num_classes)
        self.matrix += (true_onehot.t() @ pred_onehot).cpu()

    def accuracy(self):
        total = self.matrix.sum()
        if total == 0:
            return 0.0
        return (self.matrix.diag().sum() / total).item()


def evaluate(model, loader, num_classes, device):
    acc = ConfusionAccumulator(num_classes)
    model.eval()
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            acc.update(model(images), labels)
    return acc.accuracy()
