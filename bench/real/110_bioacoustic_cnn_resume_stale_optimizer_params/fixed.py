"""Bird-call CNN resumed from a saved model -- fixed with the issue's patch: after restoring
optimizer_params, their "params" are re-pointed at the loaded network's feature and classifier
parameters (nothing else changed).

Source: https://github.com/kitzeslab/opensoundscape/issues/351 (Continuing training of CNN from loaded model may not be working)
Report: "Found the bug. It's caused by overwriting the optimizer_params attribute with the one
from the old model: self.optimizer_params = model_dict["optimizer_params"]. Since
optimizer_params contains a list of the model.network's 'parameters' meaning the actual weights,
that list is somehow out of date in that it corresponds to the old object, not the current one";
the patch re-points the params at the current network (optimizer_params["feature"]["params"] =
model.network.feature.parameters(), same for "classifier"). Reproduced with an
opensoundscape-like model class (a network with feature and classifier blocks, optimizer_params
per block for SGD, train() that builds the optimizer from them, save()/load()) on synthetic 1 x
32 x 32 spectrograms of 4 bird species' calls; the model is trained for 2 epochs, saved, loaded
and trained for 8 more; the printed loss is the training loss of the last epoch, `acc` the
validation accuracy.

expect: params-not-updated
symptom: final-loss-ratio 2
batch: 6
"""
import argparse
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

CLASSES = ["amro", "bcch", "noca", "woth"]


def make_spectrograms(n):
    y = torch.randint(0, 4, (n,))
    x = 0.6 * torch.rand(n, 1, 32, 32)
    t = torch.arange(32).float()
    for i in range(n):
        start = int(torch.randint(0, 12, (1,)))
        f0 = [6, 12, 18, 24][y[i]] + float(torch.randn(1))
        slope = [0.3, -0.3, 0.0, 0.5][y[i]]
        for k in range(start, start + 16):
            f = int(round(f0 + slope * (k - start)))
            if 0 <= f < 32:
                x[i, 0, f, k] += 1.0
    return x, y


class Network(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.feature = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                     nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
                                     nn.Flatten())
        self.classifier = nn.Linear(32 * 16, num_classes)

    def forward(self, x):
        return self.classifier(self.feature(x))


class CnnModel:
    def __init__(self, classes):
        self.classes = classes
        self.network = Network(len(classes))
        self.optimizer_params = {
            "feature": {"params": list(self.network.feature.parameters()), "lr": 0.01, "momentum": 0.9, "weight_decay": 5e-4},
            "classifier": {"params": list(self.network.classifier.parameters()), "lr": 0.01, "momentum": 0.9, "weight_decay": 5e-4},
        }
        self.current_epoch = 0

    def _init_optimizer(self):
        return torch.optim.SGD([self.optimizer_params["feature"], self.optimizer_params["classifier"]])

    def train(self, train_loader, valid_set, epochs):
        optimizer = self._init_optimizer()
        for _ in range(epochs):
            self.network.train()
            total, n = 0.0, 0
            for x, y in train_loader:
                loss = F.cross_entropy(self.network(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                total += loss.item() * len(y)
                n += len(y)
            self.network.eval()
            with torch.no_grad():
                acc = (self.network(valid_set[0]).argmax(1) == valid_set[1]).float().mean().item()
            self.current_epoch += 1
            self.loss, self.acc = total / n, acc
            print(f"epoch {self.current_epoch} train loss {self.loss:.4f} valid acc {acc:.4f}")

    def save(self):
        return {"classes": self.classes, "model_state_dict": copy.deepcopy(self.network.state_dict()),
                "optimizer_params": self.optimizer_params, "epoch": self.current_epoch}

    @classmethod
    def load(cls, model_dict):
        model = cls(model_dict["classes"])
        model.network.load_state_dict(model_dict["model_state_dict"])
        model.optimizer_params = model_dict["optimizer_params"]
        model.optimizer_params["feature"]["params"] = list(model.network.feature.parameters())
        model.optimizer_params["classifier"]["params"] = list(model.network.classifier.parameters())
        model.current_epoch = model_dict["epoch"]
        return model


x_train, y_train = make_spectrograms(1200)
valid_set = make_spectrograms(400)
train_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=64, shuffle=True)

model = CnnModel(CLASSES)
model.train(train_loader, valid_set, epochs=2)
checkpoint = model.save()

model = CnnModel.load(checkpoint)                 # continue training from the saved model
model.train(train_loader, valid_set, epochs=8)
print(f"final_loss={model.loss:.6g} acc={model.acc:.4f}")
