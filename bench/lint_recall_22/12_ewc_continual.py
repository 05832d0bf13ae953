"""Elastic weight consolidation over a stream of classification tasks."""
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class EWC:
    def __init__(self, lam=100.0):
        self.lam = lam
        self.saved_params = {}
        self.importances = {}

    def compute_importances(self, model, dataset, device, batch_size=64):
        model.eval()  # expect: train-mode-not-restored
        importances = OrderedDict((n, torch.zeros_like(p)) for n, p in model.named_parameters())
        loader = DataLoader(dataset, batch_size=batch_size, shuffle=True)
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            model.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            for n, p in model.named_parameters():
                if p.grad is not None:
                    importances[n] += p.grad.detach().pow(2)
        for n in importances:
            importances[n] /= float(max(len(loader), 1))
        return importances

    def after_task(self, task_id, model, dataset, device):
        self.saved_params[task_id] = {n: p.detach().clone() for n, p in model.named_parameters()}
        self.importances[task_id] = self.compute_importances(model, dataset, device)

    def penalty(self, model):
        total = 0.0
        for task_id, params in self.saved_params.items():
            imps = self.importances[task_id]
            for n, p in model.named_parameters():
                total = total + (imps[n] * (p - params[n]).pow(2)).sum()
        return self.lam / 2 * total


def train_stream(model, tasks, device="cuda", epochs=5, lr=0.01):
    model.to(device)
    ewc = EWC()
    criterion = nn.CrossEntropyLoss()
    for task_id, (train_set, _) in enumerate(tasks):
        optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        loader = DataLoader(train_set, batch_size=128, shuffle=True)
        if task_id == 0:
            model.train()
        for _ in range(epochs):
            for x, y in loader:
                x, y = x.to(device), y.to(device)
                optimizer.zero_grad()
                loss = criterion(model(x), y) + ewc.penalty(model)
                loss.backward()
                optimizer.step()
        ewc.after_task(task_id, model, train_set, device)
    return model
