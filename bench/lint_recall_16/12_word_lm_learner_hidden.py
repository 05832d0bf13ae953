"""Word-level language model wrapped in a small fit/predict learner that keeps its RNN state."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNModel(nn.Module):
    def __init__(self, ntokens, ninp=128, nhid=256, nlayers=2, dropout=0.2):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntokens, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntokens)
        self.nlayers, self.nhid = nlayers, nhid

    def forward(self, x, hidden):
        emb = self.drop(self.encoder(x))
        output, hidden = self.rnn(emb, hidden)
        return self.decoder(self.drop(output)), hidden

    def init_hidden(self, bsz):
        w = next(self.parameters())
        return (w.new_zeros(self.nlayers, bsz, self.nhid), w.new_zeros(self.nlayers, bsz, self.nhid))


class Learner:
    def __init__(self, module, ntokens, batch_size=20, lr=20.0, clip=0.25):
        self.module_ = module
        self.ntokens = ntokens
        self.hidden = module.init_hidden(batch_size)
        self.optimizer = torch.optim.SGD(module.parameters(), lr=lr)
        self.clip = clip

    def infer(self, X):
        output, self.hidden = self.module_(X, self.hidden)  # expect: hidden-state-not-detached
        return output.view(-1, self.ntokens)

    def train_step(self, X, y):
        self.module_.train()
        self.optimizer.zero_grad()
        y_pred = self.infer(X)
        loss = F.cross_entropy(y_pred, y.view(-1))
        loss.backward()
        nn.utils.clip_grad_norm_(self.module_.parameters(), self.clip)
        self.optimizer.step()
        return loss.item()

    def fit(self, batches, epochs=1):
        for epoch in range(epochs):
            total = 0.0
            for i, (X, y) in enumerate(batches):
                total += self.train_step(X, y)
                if (i + 1) % 10 == 0:
                    print(f"epoch {epoch} batch {i + 1}: ppl {torch.exp(torch.tensor(total / 10)):.1f}")
                    total = 0.0


def batchify_stream(stream, bsz, bptt=35):
    nbatch = stream.size(0) // bsz
    data = stream[: nbatch * bsz].view(bsz, -1).t().contiguous()
    for i in range(0, data.size(0) - 1, bptt):
        seq_len = min(bptt, data.size(0) - 1 - i)
        yield data[i:i + seq_len], data[i + 1:i + 1 + seq_len]


if __name__ == "__main__":
    ntokens = 1000
    learner = Learner(RNNModel(ntokens), ntokens)
    learner.fit(list(batchify_stream(torch.randint(0, ntokens, (20 * 35 * 30,)), 20)))
