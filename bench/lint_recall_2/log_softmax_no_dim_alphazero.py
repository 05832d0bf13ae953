# Source: https://github.com/suragnair/alpha-zero-general/issues/5
# Pitfall: The policy head returns F.log_softmax(pi) without dim; the implicit choice is deprecated and picks the dimension from the input rank, so a differently shaped batch is normalised along the wrong axis.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BoardNet(nn.Module):
    def __init__(self, board_x, board_y, action_size, channels=64):
        super().__init__()
        self.conv = nn.Conv2d(1, channels, 3, padding=1)
        self.bn = nn.BatchNorm2d(channels)
        self.fc_pi = nn.Linear(channels * board_x * board_y, action_size)
        self.fc_v = nn.Linear(channels * board_x * board_y, 1)

    def forward(self, boards):
        x = F.relu(self.bn(self.conv(boards.unsqueeze(1))))
        x = x.flatten(1)
        pi = self.fc_pi(x)
        v = self.fc_v(x)
        return F.log_softmax(pi), torch.tanh(v)  # expect: softmax-without-dim


def train_on_examples(net, boards, target_pis, target_vs, lr=1e-3):
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    net.train()
    out_log_pi, out_v = net(boards)
    loss_pi = -(target_pis * out_log_pi).sum(dim=1).mean()
    loss_v = ((target_vs - out_v.view(-1)) ** 2).mean()
    loss = loss_pi + loss_v
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
