# Source: https://github.com/spro/practical-pytorch/issues/9
# Pitfall: the optimizer is created from the first RNN instance, then the script builds the RNN a
# second time before the loop; the optimizer steps the old, unused weights and the trained net never learns.
# Reproduced in our own words, not the original code.
import random
import string

import torch
import torch.nn as nn

ALPHABET = string.ascii_letters + " .,;'"


def word_to_tensor(word):
    t = torch.zeros(len(word), 1, len(ALPHABET))
    for i, ch in enumerate(word):
        t[i, 0, ALPHABET.find(ch)] = 1.0
    return t


class CharRNN(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.n_hidden = n_hidden
        self.i2h = nn.Linear(n_in + n_hidden, n_hidden)
        self.i2o = nn.Linear(n_in + n_hidden, n_out)
        self.log_probs = nn.LogSoftmax(dim=1)

    def forward(self, x, h):
        joined = torch.cat((x, h), 1)
        return self.log_probs(self.i2o(joined)), self.i2h(joined)

    def blank_state(self):
        return torch.zeros(1, self.n_hidden)


languages = ["English", "French", "German", "Italian"]
samples = {lang: [] for lang in languages}

HIDDEN = 128
rnn = CharRNN(len(ALPHABET), HIDDEN, len(languages))
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.005)


def train_one(lang_idx, word_t):
    h = rnn.blank_state()
    optimizer.zero_grad()
    for i in range(word_t.size(0)):
        out, h = rnn(word_t[i], h)
    loss = criterion(out, lang_idx)
    loss.backward()
    optimizer.step()
    return out, loss.item()


def random_pair():
    lang = random.choice(languages)
    word = random.choice(samples[lang])
    return torch.tensor([languages.index(lang)]), word_to_tensor(word)


rnn = CharRNN(len(ALPHABET), HIDDEN, len(languages))  # expect: optimizer-misses-params
total = 0.0
for step in range(1, 100001):
    target, word_t = random_pair()
    _, step_loss = train_one(target, word_t)
    total += step_loss
    if step % 5000 == 0:
        print(f"{step} avg loss {total / 5000:.4f}")
        total = 0.0
