"""Teacher-free knowledge distillation: a hand-designed virtual teacher regularizes the student."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Params:
    alpha = 0.1
    temperature = 20.0
    multiplier = 1.0
    correct_prob = 0.99
    num_classes = 100


def virtual_teacher(labels, params):
    k = params.num_classes
    teacher = torch.full((labels.size(0), k), (1 - params.correct_prob) / (k - 1), device=labels.device)
    teacher.scatter_(1, labels.unsqueeze(1), params.correct_prob)
    return teacher


def loss_kd_regularization(outputs, labels, params):
    alpha, T = params.alpha, params.temperature
    loss_ce = F.cross_entropy(outputs, labels)
    teacher_soft = F.softmax(virtual_teacher(labels, params) / T, dim=1)
    loss_soft_regu = nn.KLDivLoss()(F.log_softmax(outputs / T, dim=1), teacher_soft) * params.multiplier  # expect: kl-div-mean-reduction
    return (1.0 - alpha) * loss_ce + alpha * loss_soft_regu


def build_student():
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(64, 100),
    )


def train_and_evaluate(epochs=3):
    params = Params()
    x, y = torch.randn(1024, 3, 32, 32), torch.randint(0, 100, (1024,))
    train_dl = DataLoader(TensorDataset(x[:896], y[:896]), batch_size=64, shuffle=True)
    val_dl = DataLoader(TensorDataset(x[896:], y[896:]), batch_size=128)
    model = build_student()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=60, gamma=0.2)
    for epoch in range(epochs):
        model.train()
        for inputs, labels in train_dl:
            loss = loss_kd_regularization(model(inputs), labels, params)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for inputs, labels in val_dl:
                correct += (model(inputs).argmax(1) == labels).sum().item()
        print(f"epoch {epoch}: val acc {correct / len(val_dl.dataset):.3f}")


if __name__ == "__main__":
    train_and_evaluate()
