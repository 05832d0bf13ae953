"""Fixed version of 02_model_instantiated_twice/buggy.py (the source and the report are in its docstring).

Fix: the optimizer is built after the (second) instantiation of the model it trains.
"""
import argparse
import random

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.manual_seed(args.seed)
random.seed(args.seed)

letters = "abcdefghijklmnopqrstuvwxyz"
n_letters, n_categories = len(letters), 4


def make_name(cat):
    # each "language" prefers its own slice of the alphabet
    pool = letters[cat * 6:cat * 6 + 8]
    return "".join(random.choice(pool) for _ in range(random.randint(3, 7)))


def line_to_tensor(line):
    t = torch.zeros(len(line), 1, n_letters)
    for i, c in enumerate(line):
        t[i][0][letters.index(c)] = 1
    return t


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = torch.tanh(self.i2h(combined))
        return self.softmax(self.i2o(combined)), hidden

    def init_hidden(self):
        return torch.zeros(1, self.hidden_size)


n_hidden = 64
rnn = RNN(n_letters, n_hidden, n_categories)
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.05)
criterion = nn.NLLLoss()


def train(category_tensor, line_tensor):
    hidden = rnn.init_hidden()
    optimizer.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    optimizer.step()
    return output, loss.item()


rnn = RNN(n_letters, n_hidden, n_categories)  # "fresh model before training"
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.05)

losses = []
for it in range(800):
    cat = random.randrange(n_categories)
    output, loss = train(torch.tensor([cat]), line_to_tensor(make_name(cat)))
    losses.append(loss)

correct = 0
with torch.no_grad():
    for _ in range(200):
        cat = random.randrange(n_categories)
        t = line_to_tensor(make_name(cat))
        h = rnn.init_hidden()
        for i in range(t.size(0)):
            out, h = rnn(t[i], h)
        correct += int(out.argmax(1).item() == cat)
print(f"final_loss={sum(losses[-200:]) / 200:.6g} acc={correct / 200:.4f}")
