"""AND-mask domain generalization: keep only gradient components whose sign agrees across environments."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd


class ANDMask(nn.Module):
    def __init__(self, featurizer, classifier, lr=1e-3, weight_decay=0.0, tau=0.5):
        super().__init__()
        self.network = nn.Sequential(featurizer, classifier)
        self.tau = tau
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=lr, weight_decay=weight_decay)

    def update(self, minibatches):
        total_loss = 0
        param_gradients = [[] for _ in self.network.parameters()]
        for x, y in minibatches:
            logits = self.network(x)
            env_loss = F.cross_entropy(logits, y)
            total_loss += env_loss  # expect: running-loss-keeps-graph
            env_grads = autograd.grad(env_loss, self.network.parameters(), retain_graph=True)
            for grads, env_grad in zip(param_gradients, env_grads):
                grads.append(env_grad)
        mean_loss = total_loss / len(minibatches)
        self.optimizer.zero_grad()
        self.mask_grads(self.tau, param_gradients, self.network.parameters())
        self.optimizer.step()
        return {"loss": mean_loss.item()}

    def mask_grads(self, tau, gradients, params):
        for param, grads in zip(params, gradients):
            grads = torch.stack(grads, dim=0)
            grad_signs = torch.sign(grads)
            mask = torch.mean(grad_signs, dim=0).abs() >= tau
            mask = mask.to(torch.float32)
            avg_grad = torch.mean(grads, dim=0)
            mask_t = mask.sum() / mask.numel()
            param.grad = mask * avg_grad
            param.grad *= 1.0 / (1e-10 + mask_t)

    def predict(self, x):
        return self.network(x)


def train(algorithm, env_loaders, steps=5000, log_every=100):
    iterators = [iter(loader) for loader in env_loaders]
    algorithm.train()
    for step in range(steps):
        minibatches = []
        for i, it in enumerate(iterators):
            try:
                minibatches.append(next(it))
            except StopIteration:
                iterators[i] = iter(env_loaders[i])
                minibatches.append(next(iterators[i]))
        stats = algorithm.update(minibatches)
        if step % log_every == 0:
            print(step, stats)
