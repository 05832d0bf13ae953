"""Word-level RNN language model -- fixed as the instructor suggests: the model type is RNN_TANH, a
bounded (sigmoid-family) recurrence, instead of RNN_RELU (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

# ---- synthetic corpus: words belong to 20 classes, class sequence is a Markov chain ----
VOCAB, CLASSES = 400, 20
word_class = torch.arange(VOCAB) % CLASSES
class_trans = torch.softmax(3.0 * torch.randn(CLASSES, CLASSES), 1)
word_in_class = torch.softmax(1.5 * torch.randn(CLASSES, VOCAB // CLASSES), 1)


def generate(n_tokens):
    c = 0
    out = torch.empty(n_tokens, dtype=torch.long)
    cls = torch.multinomial(class_trans, n_tokens, replacement=True)   # candidate next classes per class
    pick = torch.multinomial(word_in_class, n_tokens, replacement=True)
    for t in range(n_tokens):
        c = int(cls[c, t])
        out[t] = int(pick[c, t]) * CLASSES + c
    return out


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[:nbatch * bsz].view(bsz, -1).t().contiguous()


BPTT = 35


def get_batch(source, i):
    seq_len = min(BPTT, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def repackage_hidden(h):
    return h.detach()


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.2):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        nonlinearity = {"RNN_TANH": "tanh", "RNN_RELU": "relu"}[rnn_type]
        self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nlayers, self.nhid = nlayers, nhid
        nn.init.uniform_(self.encoder.weight, -0.1, 0.1)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -0.1, 0.1)

    def forward(self, x, hidden):
        out, hidden = self.rnn(self.drop(self.encoder(x)), hidden)
        return self.decoder(self.drop(out)), hidden

    def init_hidden(self, bsz):
        return torch.zeros(self.nlayers, bsz, self.nhid)


corpus = generate(66000)
train_data = batchify(corpus[:60000], 20)
val_data = batchify(corpus[60000:], 10)
model = RNNModel("RNN_TANH", VOCAB, 64, 128, 2)
criterion = nn.CrossEntropyLoss()
lr = 1.0


def evaluate(source):
    model.eval()
    hidden = model.init_hidden(source.size(1))
    correct = total = 0
    with torch.no_grad():
        for i in range(0, source.size(0) - 1, BPTT):
            data, targets = get_batch(source, i)
            out, hidden = model(data, hidden)
            correct += (out.reshape(-1, VOCAB).argmax(1) == targets).sum().item()
            total += targets.numel()
            loss = criterion(out.reshape(-1, VOCAB), targets)
    return loss.item(), correct / total


best_val = None
for epoch in range(4):
    model.train()
    hidden = model.init_hidden(20)
    losses = []
    for i in range(0, train_data.size(0) - 1, BPTT):
        data, targets = get_batch(train_data, i)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output.reshape(-1, VOCAB), targets)
        loss.backward()
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        losses.append(loss.item())
    val_loss, val_acc = evaluate(val_data)
    print(f"epoch {epoch} train loss {sum(losses) / len(losses):.3f} val loss {val_loss:.3f} lr {lr}")
    if best_val is None or val_loss < best_val:
        best_val = val_loss
    else:
        lr /= 4.0

print(f"final_loss={sum(losses) / len(losses):.6g} acc={val_acc:.4f}")
