"""Fixed version of 09_char_rnn_softmax_nll/buggy.py (the source and the report are in its docstring).

Fix: LogSoftmax output for NLLLoss.
"""
import argparse
import random

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
random.seed(args.seed)

all_letters = "abcdefghijklmnopqrstuvwxyz"
n_letters, n_categories = 26, 3


def random_example():
    c = random.randrange(n_categories)
    name = "".join(random.choice(all_letters[c * 8:c * 8 + 10]) for _ in range(random.randint(3, 6)))
    t = torch.zeros(len(name), 1, n_letters)
    for i, ch in enumerate(name):
        t[i, 0, all_letters.index(ch)] = 1
    return torch.tensor([c]), t


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.softmax(self.i2o(combined))
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


rnn = RNN(n_letters, 48, n_categories)
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.05)

all_losses = []
for it in range(800):
    category_tensor, line_tensor = random_example()
    hidden = rnn.initHidden()
    optimizer.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(rnn.parameters(), 0.25)
    optimizer.step()
    all_losses.append(loss.item())

correct = 0
with torch.no_grad():
    for _ in range(300):
        c, t = random_example()
        h = rnn.initHidden()
        for i in range(t.size(0)):
            out, h = rnn(t[i], h)
        correct += int(out.argmax(1).item() == c.item())
print(f"final_loss={sum(all_losses[-200:]) / 200:.6g} acc={correct / 300:.4f}")
