# Source: https://github.com/speechbrain/speechbrain/issues/735
# Pitfall: Because backward() complained that the loss had no grad_fn, the objective was rewrapped as Variable(loss, requires_grad=True); the new tensor is a leaf cut off from the model, so backward() runs but the classifier never learns.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.autograd import Variable


class SpeakerBrain:
    def __init__(self, model, optimizer, device="cpu"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.device = device
        self.criterion = nn.NLLLoss()

    def compute_forward(self, feats):
        return self.model(feats.to(self.device))

    def compute_objectives(self, predictions, speaker_ids):
        log_probs = torch.log_softmax(predictions, dim=-1).detach()
        loss = self.criterion(log_probs, speaker_ids.to(self.device))
        loss = Variable(loss, requires_grad=True)  # expect: backward-without-graph
        return loss

    def fit_batch(self, feats, speaker_ids):
        self.model.train()
        predictions = self.compute_forward(feats)
        loss = self.compute_objectives(predictions, speaker_ids)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
