# Source: https://github.com/MorvanZhou/PyTorch-Tutorial/issues/57
# Pitfall: The sine-to-cosine RNN tutorial carries the hidden state into the next window; without
# re-wrapping it (h_state = h_state.data / .detach()) the second backward() goes through the freed graph.
# Reproduced in our own words, not the original code.
import math

import torch
import torch.nn as nn


class SeqRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(input_size=1, hidden_size=32, num_layers=1, batch_first=True)
        self.out = nn.Linear(32, 1)

    def forward(self, x, h_state):
        r_out, h_state = self.rnn(x, h_state)
        return self.out(r_out), h_state


def train(steps=100, time_step=10, lr=0.02):
    model = SeqRegressor()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_func = nn.MSELoss()
    h_state = None
    for step in range(steps):
        start, end = step * math.pi, (step + 1) * math.pi
        t = torch.linspace(start, end, time_step)
        x = torch.sin(t).view(1, time_step, 1)
        y = torch.cos(t).view(1, time_step, 1)
        prediction, h_state = model(x, h_state)  # expect: hidden-state-not-detached
        loss = loss_func(prediction, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model
