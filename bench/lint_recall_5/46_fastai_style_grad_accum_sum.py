# Source: https://github.com/fastai/fastai/issues/3023
# Pitfall: the gradient-accumulation callback lets backward() add up the gradients of n_acc micro-batches and
#          steps once, but never divides the loss by the number of accumulated batches: the update is n_acc times too big.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class GradientAccumulation:
    def __init__(self, n_acc=32):
        self.n_acc = n_acc
        self.count = 0

    def after_backward(self, learner):
        self.count += learner.xb.shape[0]
        if self.count < self.n_acc:
            return False
        self.count = 0
        return True


class Learner:
    def __init__(self, model, loader, lr=1e-3, cbs=()):
        self.model, self.loader = model, loader
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.loss_func = nn.CrossEntropyLoss()
        self.cbs = list(cbs)

    def one_batch(self, xb, yb):
        self.xb, self.yb = xb, yb
        self.loss = self.loss_func(self.model(xb), yb)
        self.loss.backward()  # expect: accumulation-not-averaged
        if all(cb.after_backward(self) for cb in self.cbs):
            self.opt.step()
            self.opt.zero_grad()

    def fit(self, n_epoch):
        for epoch in range(n_epoch):
            self.model.train()
            for xb, yb in self.loader:
                self.one_batch(xb, yb)
            print(epoch, self.loss.item())


if __name__ == "__main__":
    x, y = torch.randn(256, 20), torch.randint(0, 4, (256,))
    dl = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)
    net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
    Learner(net, dl, cbs=[GradientAccumulation(n_acc=32)]).fit(3)
