"""Character-level LSTM language model (char-rnn layout: embedding, 2-layer LSTM, softmax over characters) trained on 250-character sequences with the per-step losses summed over time and never divided by seq_length: the gradient is ~250x that of a per-character loss, SGD throws the weights far out and the per-character loss ends in the tens of thousands instead of well under 1.

Source: https://github.com/karpathy/char-rnn/issues/70 (Gradient magnitute depends on seq_length)
Report: "I've used char-rnn as a base for a different learning task, which requires me to train
the networks on much longer sequences. However I've quickly realized that the training is very
unstable and requires a ridiculously small learning rate ... Apparently the gradient is growing
approximately linearly with the sequence length" (grad norm 3.0 at seq_length 10, 61 at 250, 105
at 500); the fix: "grad_params:div(opt.seq_length)"; karpathy: "This is in fact a bug. The loss
should be normalized". Reproduced with char-rnn's training loop in PyTorch (the text cut
into batch_size x seq_length blocks, hidden state carried over between consecutive blocks, criterion
applied per time step and summed) with seq_length 250, plain SGD lr 2 (momentum 0.9), on a
synthetic corpus of sentences drawn from a small word-level grammar (~30 characters). The printed
loss is the per-character cross-entropy of the last 20 batches, `acc` the next-character accuracy
on a held-out stretch of text.

expect: loss-reduction
symptom: loss-above 5
batch: 8
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

opt = argparse.Namespace(rnn_size=128, num_layers=2, seq_length=250, batch_size=16,
                         learning_rate=2.0, max_steps=120)

SUBJ = ["the cat", "a dog", "my friend", "the old man", "she", "he", "the bird", "our teacher"]
VERB = ["sees", "likes", "follows", "finds", "watches", "calls", "helps"]
OBJ = ["the ball", "a tree", "the river", "her sister", "the small house", "a red car", "them"]
ADV = ["today", "again", "slowly", "at night", "every day", "quietly"]


def sentence():
    r = lambda xs: xs[int(torch.randint(0, len(xs), (1,)))]
    s = f"{r(SUBJ)} {r(VERB)} {r(OBJ)}"
    if torch.rand(1) < 0.5:
        s += " " + r(ADV)
    return s + (". " if torch.rand(1) < 0.8 else "! ")


text = "".join(sentence() for _ in range(9000))
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text])
split = int(0.95 * len(data))
train_data, val_data = data[:split], data[split:]
V = len(chars)

n_cols = (len(train_data) - 1) // opt.batch_size
x_all = train_data[:n_cols * opt.batch_size].view(opt.batch_size, n_cols)
y_all = train_data[1:n_cols * opt.batch_size + 1].view(opt.batch_size, n_cols)


class CharRNN(nn.Module):
    def __init__(self, vocab, hidden, layers):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.lstm = nn.LSTM(hidden, hidden, layers, batch_first=True, dropout=0.0)
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        h, state = self.lstm(self.embed(x), state)
        return self.proj(h), state


model = CharRNN(V, opt.rnn_size, opt.num_layers)
for p in model.parameters():
    nn.init.uniform_(p, -0.08, 0.08)          # char-rnn's init
optimizer = torch.optim.SGD(model.parameters(), lr=opt.learning_rate, momentum=0.9)

state, pos, recent = None, 0, []
for step in range(opt.max_steps):
    if pos + opt.seq_length > n_cols:
        pos, state = 0, None
    x = x_all[:, pos:pos + opt.seq_length]
    y = y_all[:, pos:pos + opt.seq_length]
    pos += opt.seq_length
    if state is not None:
        state = tuple(s.detach() for s in state)
    logits, state = model(x, state)
    loss = 0
    for t in range(opt.seq_length):                      # criterion per time step, summed
        loss = loss + F.cross_entropy(logits[:, t], y[:, t])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    recent.append(loss.item() / opt.seq_length)
    recent = recent[-20:]
    if step % 20 == 0:
        print(f"step {step} train loss/char {recent[-1]:.4f}")

model.eval()
with torch.no_grad():
    logits, _ = model(val_data[:-1].unsqueeze(0))
    acc = (logits.argmax(-1).squeeze(0) == val_data[1:]).float().mean().item()
final = sum(recent) / len(recent)
print(f"final_loss={final:.6g} acc={acc:.4f}")
