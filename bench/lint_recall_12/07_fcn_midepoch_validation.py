import math
import torch
import torch.nn.functional as F


class SegTrainer:
    def __init__(self, model, optimizer, train_loader, val_loader, interval_validate=4000, cuda=True):
        self.model = model
        self.optim = optimizer
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.interval_validate = interval_validate
        self.cuda = cuda
        self.iteration = 0
        self.best_mean_iu = 0.0

    def validate(self):
        self.model.eval()  # expect: train-mode-not-restored
        n_class = self.model.n_class
        hist = torch.zeros(n_class, n_class)
        with torch.no_grad():
            for data, target in self.val_loader:
                if self.cuda:
                    data, target = data.cuda(), target.cuda()
                pred = self.model(data).argmax(dim=1)
                mask = target >= 0
                idx = n_class * target[mask] + pred[mask]
                hist += torch.bincount(idx.cpu(), minlength=n_class ** 2).reshape(n_class, n_class).float()
        iu = hist.diag() / (hist.sum(0) + hist.sum(1) - hist.diag()).clamp(min=1)
        mean_iu = iu.mean().item()
        self.best_mean_iu = max(self.best_mean_iu, mean_iu)

    def train_epoch(self):
        self.model.train()
        for data, target in self.train_loader:
            if self.iteration % self.interval_validate == 0:
                self.validate()
            if self.cuda:
                data, target = data.cuda(), target.cuda()
            self.optim.zero_grad()
            score = self.model(data)
            loss = F.cross_entropy(score, target, ignore_index=-1)
            if math.isnan(loss.item()):
                raise ValueError("loss is nan while training")
            loss.backward()
            self.optim.step()
            self.iteration += 1
