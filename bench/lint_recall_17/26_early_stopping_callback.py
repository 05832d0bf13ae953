"""Early-stopping callback for a scikit-learn style neural net wrapper."""
import numpy as np
import torch


class EarlyStopping:
    def __init__(self, monitor="valid_loss", patience=5, threshold=1e-4, load_best=True):
        self.monitor = monitor
        self.patience = patience
        self.threshold = threshold
        self.load_best = load_best

    def on_train_begin(self, net):
        self.misses_ = 0
        self.dynamic_threshold_ = np.inf
        self.best_model_weights_ = None
        self.best_epoch_ = 0

    def on_epoch_end(self, net, epoch, score):
        if score < self.dynamic_threshold_ - self.threshold:
            self.misses_ = 0
            self.dynamic_threshold_ = score
            self.best_epoch_ = epoch
            if self.load_best:
                self.best_model_weights_ = net.module_.state_dict()  # expect: state-dict-not-copied
        else:
            self.misses_ += 1
        return self.misses_ >= self.patience

    def on_train_end(self, net):
        if self.load_best and self.best_model_weights_ is not None:
            net.module_.load_state_dict(self.best_model_weights_)


def fit(net, train_loader, valid_loader, callback, max_epochs=100):
    callback.on_train_begin(net)
    loss_fn = torch.nn.MSELoss()
    for epoch in range(max_epochs):
        net.module_.train()
        for x, y in train_loader:
            net.optimizer_.zero_grad()
            loss = loss_fn(net.module_(x), y)
            loss.backward()
            net.optimizer_.step()
        net.module_.eval()
        with torch.no_grad():
            valid = float(np.mean([loss_fn(net.module_(x), y).item() for x, y in valid_loader]))
        if callback.on_epoch_end(net, epoch, valid):
            break
    callback.on_train_end(net)
