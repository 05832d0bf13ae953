# Source: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/pull/46
# Pitfall: The categorical policy head computes F.softmax / F.log_softmax of the action logits without
# dim; the implicit dimension choice is deprecated and is the wrong axis for some input shapes.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CategoricalHead(nn.Module):
    def __init__(self, num_inputs, num_actions):
        super().__init__()
        self.linear = nn.Linear(num_inputs, num_actions)

    def forward(self, features):
        return self.linear(features)

    def sample(self, features, deterministic=False):
        logits = self(features)
        probs = F.softmax(logits)  # expect: softmax-without-dim
        if deterministic:
            return probs.argmax(dim=1, keepdim=True)
        return probs.multinomial(num_samples=1)

    def evaluate(self, features, actions):
        logits = self(features)
        log_probs = F.log_softmax(logits, dim=1)
        probs = log_probs.exp()
        action_log_probs = log_probs.gather(1, actions)
        entropy = -(log_probs * probs).sum(-1).mean()
        return action_log_probs, entropy
