# Source: https://github.com/BatsResearch/labelmodels/commit/3801b62992a1a4c0cfde42d0b44e5f4605fd62f6
# Pitfall: the label-model fitting loop adds the loss tensor itself to running_loss, so every batch's autograd
#   graph stays alive until the epoch ends; on large label matrices the GPU runs out of memory.
# Reproduced in our own words, not the original code.
import logging
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class NaiveBayesLabelModel(nn.Module):
    def __init__(self, num_classes, num_lfs, acc_prior=0.025):
        super().__init__()
        self.num_classes = num_classes
        self.acc_prior = acc_prior
        self.accuracy = nn.Parameter(torch.full((num_lfs,), 0.7))
        self.propensity = nn.Parameter(torch.full((num_lfs,), 0.5))
        self.class_balance = nn.Parameter(torch.zeros(num_classes))

    def forward(self, votes):
        # votes: (batch, num_lfs) with 0 = abstain, 1..k = class votes
        abstain = votes.eq(0).float()
        log_prior = torch.log_softmax(self.class_balance, dim=0)
        log_acc, log_miss = F.logsigmoid(self.accuracy), F.logsigmoid(-self.accuracy)
        log_prop, log_noprop = F.logsigmoid(self.propensity), F.logsigmoid(-self.propensity)
        log_other = math.log(max(self.num_classes - 1, 1))
        per_class = []
        for c in range(1, self.num_classes + 1):
            agree = votes.eq(c).float()
            disagree = (1 - abstain) * (1 - agree)
            ll = abstain * log_noprop + agree * (log_prop + log_acc) \
                + disagree * (log_prop + log_miss - log_other)
            per_class.append(ll.sum(dim=1) + log_prior[c - 1])
        return torch.logsumexp(torch.stack(per_class, dim=1), dim=1)

    def _regularization(self):
        return self.acc_prior * torch.norm(self.accuracy - 0.7) ** 2

    def fit(self, batches, epochs=5, lr=0.01, device="cpu"):
        self.to(device)
        optimizer = torch.optim.SGD(self.parameters(), lr=lr, momentum=0.9)
        for epoch in range(epochs):
            running_loss = 0.0
            for votes in batches:
                optimizer.zero_grad()
                log_likelihood = self(votes.to(device))
                loss = -1 * torch.mean(log_likelihood)
                loss += self._regularization()
                loss.backward()
                optimizer.step()
                running_loss += loss  # expect: running-loss-keeps-graph
            epoch_loss = running_loss / len(batches)
            logging.info("epoch %d train loss %.6f", epoch, float(epoch_loss))
