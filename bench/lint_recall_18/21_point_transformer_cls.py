"""Point Cloud Transformer classification on ModelNet40 with cosine annealing and label-smoothed CE."""
import numpy as np
import sklearn.metrics as metrics
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import CosineAnnealingLR
from torch.utils.data import DataLoader


def cal_loss(pred, gold, smoothing=True, eps=0.2):
    gold = gold.contiguous().view(-1)
    if smoothing:
        n_class = pred.size(1)
        one_hot = torch.zeros_like(pred).scatter(1, gold.view(-1, 1), 1)
        one_hot = one_hot * (1 - eps) + (1 - one_hot) * eps / (n_class - 1)
        log_prb = F.log_softmax(pred, dim=1)
        return -(one_hot * log_prb).sum(dim=1).mean()
    return F.cross_entropy(pred, gold, reduction="mean")


def train(model, train_set, test_set, epochs=250, lr=0.01, batch_size=32):
    device = torch.device("cuda")
    train_loader = DataLoader(train_set, num_workers=8, batch_size=batch_size, shuffle=True, drop_last=True)
    test_loader = DataLoader(test_set, num_workers=8, batch_size=batch_size // 2, shuffle=False)
    model = nn.DataParallel(model.to(device))
    opt = optim.SGD(model.parameters(), lr=lr * 100, momentum=0.9, weight_decay=5e-4)
    scheduler = CosineAnnealingLR(opt, epochs, eta_min=lr)
    best_test_acc = 0.0
    for epoch in range(epochs):
        scheduler.step()  # expect: scheduler-before-optimizer
        model.train()
        train_loss, count = 0.0, 0
        for data, label in train_loader:
            data, label = data.to(device).permute(0, 2, 1), label.to(device).squeeze()
            opt.zero_grad()
            logits = model(data)
            loss = cal_loss(logits, label)
            loss.backward()
            opt.step()
            count += data.size(0)
            train_loss += loss.item() * data.size(0)

        model.eval()
        test_pred, test_true = [], []
        with torch.no_grad():
            for data, label in test_loader:
                data, label = data.to(device).permute(0, 2, 1), label.to(device).squeeze()
                test_true.append(label.cpu().numpy())
                test_pred.append(model(data).argmax(dim=1).cpu().numpy())
        test_acc = metrics.accuracy_score(np.concatenate(test_true), np.concatenate(test_pred))
        if test_acc >= best_test_acc:
            best_test_acc = test_acc
            torch.save(model.state_dict(), "checkpoints/model.t7")
        print(f"epoch {epoch}: train loss {train_loss / count:.4f} test acc {test_acc:.4f}")
