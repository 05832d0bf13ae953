"""NAS image-classification trainer class -- fixed as the pull request does: its _train loop now
calls optimizer.zero_grad() before and optimizer.step() after loss.backward() (nothing else changed).

Source: https://github.com/microsoft/nni/pull/3339 (Fix PyTorchImageClassificationTrainer's training)
Report: "It seems that the current process only calculates the loss and gradient, and does not
use the optimizer for optimization. Therefore, the model is not actually trained, and its
accuracy on the Web UI remains unchanged." The fix adds optimizer.zero_grad() / step() to the
trainer's _train loop. Reproduced with the trainer's structure (a class holding the model, the
DataLoaders and an optimizer built from optimizer_cls/optimizer_kwargs, training_step /
validation_step, _train / _validate per epoch, fit()) around a small CNN candidate on synthetic
3 x 16 x 16 ten-class images; `acc` is the validation accuracy the trainer reports.

expect: params-not-updated
symptom: acc-below 0.3
batch: 5
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

protos = torch.randn(10, 3, 16, 16)


def make(n):
    y = torch.randint(0, 10, (n,))
    x = 0.6 * protos[y] + torch.randn(n, 3, 16, 16)
    return TensorDataset(x, y)


class Candidate(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 4 * 4, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


class PyTorchImageClassificationTrainer:
    def __init__(self, model, train_set, val_set, optimizer_cls=torch.optim.Adam,
                 optimizer_kwargs=None, trainer_kwargs=None):
        self.model = model
        self._loss_fn = nn.CrossEntropyLoss()
        self._optimizer = optimizer_cls(model.parameters(), **(optimizer_kwargs or {}))
        self._trainer_kwargs = trainer_kwargs or {"max_epochs": 10}
        self._train_dataloader = DataLoader(train_set, batch_size=64, shuffle=True)
        self._val_dataloader = DataLoader(val_set, batch_size=256)
        self.losses = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self.model(x)
        loss = self._loss_fn(y_hat, y)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self.model(x)
        return (y_hat.argmax(1) == y).float().sum().item()

    def _train(self):
        self.model.train()
        for i, batch in enumerate(self._train_dataloader):
            self._optimizer.zero_grad()
            loss = self.training_step(batch, i)
            loss.backward()
            self._optimizer.step()
            self.losses.append(loss.item())

    def _validate(self):
        self.model.eval()
        correct, total = 0.0, 0
        with torch.no_grad():
            for i, batch in enumerate(self._val_dataloader):
                correct += self.validation_step(batch, i)
                total += len(batch[1])
        return correct / total

    def fit(self):
        for epoch in range(self._trainer_kwargs["max_epochs"]):
            self._train()
            acc = self._validate()
            print(f"epoch {epoch} loss {sum(self.losses[-50:]) / 50:.4f} val_acc {acc:.4f}")
        return acc


trainer = PyTorchImageClassificationTrainer(Candidate(), make(4000), make(1000),
                                            optimizer_kwargs={"lr": 1e-3},
                                            trainer_kwargs={"max_epochs": 6})
acc = trainer.fit()
print(f"final_loss={sum(trainer.losses[-20:]) / 20:.6g} acc={acc:.4f}")
