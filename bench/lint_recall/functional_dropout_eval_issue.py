# Source: https://github.com/pytorch/pytorch/issues/26338
# Pitfall: a forward that calls F.dropout(x) with the default training=True; net.eval() does
# not turn it off.
# Reproduced in our own words, not the original code.
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 64)
        self.fc2 = nn.Linear(64, 2)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.dropout(x)  # expect: functional-dropout-always-on
        return self.fc2(x)
