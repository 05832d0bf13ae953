# Source: https://github.com/APPFL/APPFL/issues/197
# Pitfall: The federated client optimizer runs optimizer.step() first and clip_grad_norm_ afterwards,
# so the local update is never clipped (clipping was meant to bound each client's contribution).
# Reproduced in our own words, not the original code.
import copy

import torch


class ClientOptim:
    def __init__(self, model, loss_fn, train_loader, local_steps, lr, clip_value=None, clip_norm=2):
        self.model = model
        self.loss_fn = loss_fn
        self.train_loader = train_loader
        self.local_steps = local_steps
        self.lr = lr
        self.clip_value = clip_value
        self.clip_norm = clip_norm

    def update(self, device):
        self.model.to(device)
        self.model.train()
        optimizer = torch.optim.SGD(self.model.parameters(), lr=self.lr)
        for _ in range(self.local_steps):
            for data, target in self.train_loader:
                data, target = data.to(device), target.to(device)
                optimizer.zero_grad()
                loss = self.loss_fn(self.model(data), target)
                loss.backward()
                optimizer.step()
                if self.clip_value is not None:
                    torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_value, norm_type=self.clip_norm)  # expect: clip-after-step
        return copy.deepcopy(self.model.state_dict())
