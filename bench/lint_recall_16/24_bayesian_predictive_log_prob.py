"""Mean-field variational classifier: the predictive distribution averages MC samples of softmax outputs."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class VILinear(nn.Module):
    def __init__(self, n_in, n_out, prior_std=1.0):
        super().__init__()
        self.w_mu = nn.Parameter(torch.randn(n_out, n_in) * 0.05)
        self.w_logstd = nn.Parameter(torch.full((n_out, n_in), -5.0))
        self.b = nn.Parameter(torch.zeros(n_out))
        self.prior_std = prior_std

    def forward(self, x):
        w = self.w_mu + self.w_logstd.exp() * torch.randn_like(self.w_mu)
        return F.linear(x, w, self.b)

    def kl(self):
        var = (2 * self.w_logstd).exp()
        return 0.5 * (var / self.prior_std ** 2 + self.w_mu ** 2 / self.prior_std ** 2
                      - 1 - 2 * self.w_logstd + 2 * math.log(self.prior_std)).sum()


class CategoricalPredictiveDistribution:
    @staticmethod
    def predictive_parameters_from_samples(samples: torch.Tensor) -> torch.Tensor:
        # samples: (n_samples, batch, classes) of class probabilities
        return samples.mean(dim=0)

    @staticmethod
    def log_prob_from_parameters(reference: torch.Tensor, parameters: torch.Tensor) -> torch.Tensor:
        log_params = torch.log(parameters)  # expect: unguarded-zero
        return log_params.gather(1, reference.unsqueeze(1)).squeeze(1)


class VIClassifier(nn.Module):
    def __init__(self, n_in, n_classes, hidden=64):
        super().__init__()
        self.l1 = VILinear(n_in, hidden)
        self.l2 = VILinear(hidden, n_classes)

    def forward(self, x, n_samples=8):
        outs = [F.softmax(self.l2(F.relu(self.l1(x))), dim=-1) for _ in range(n_samples)]
        return torch.stack(outs)

    def kl(self):
        return self.l1.kl() + self.l2.kl()


def train(model, loader, n_data, epochs=10):
    dist = CategoricalPredictiveDistribution()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            probs = dist.predictive_parameters_from_samples(model(x))
            nll = -dist.log_prob_from_parameters(y, probs).mean()
            loss = nll + model.kl() / n_data
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: nll {nll.item():.4f}")
