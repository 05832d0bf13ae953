# Source: https://github.com/suragnair/alpha-zero-general/issues/5
# Pitfall: the policy head returns F.log_softmax(pi) with no dim argument.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
from torch import nn


class OthelloNNet(nn.Module):
    def __init__(self, board_size, action_size):
        super().__init__()
        self.fc = nn.Linear(board_size, 256)
        self.fc_pi = nn.Linear(256, action_size)
        self.fc_v = nn.Linear(256, 1)

    def forward(self, s):
        h = F.relu(self.fc(s))
        pi = self.fc_pi(h)
        v = self.fc_v(h)
        return F.log_softmax(pi), torch.tanh(v)  # expect: softmax-without-dim
