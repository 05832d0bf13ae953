"""Word-level LSTM language model with a split (adaptive) softmax criterion that owns weights."""
import torch
from torch import nn
import torch.nn.functional as F


class SplitCrossEntropyLoss(nn.Module):
    def __init__(self, hidden_size, splits):
        super().__init__()
        self.splits = [0] + splits + [100 * 1000000]
        self.nsplits = len(self.splits) - 1
        self.tail_vectors = nn.Parameter(torch.zeros(self.nsplits - 1, hidden_size))
        self.tail_bias = nn.Parameter(torch.zeros(self.nsplits - 1))

    def forward(self, weight, bias, hiddens, targets):
        head_weight = torch.cat([weight[: self.splits[1]], self.tail_vectors])
        head_bias = torch.cat([bias[: self.splits[1]], self.tail_bias])
        head_logits = F.linear(hiddens, head_weight, head_bias)
        in_head = targets < self.splits[1]
        head_targets = torch.where(in_head, targets, torch.full_like(targets, self.splits[1]))
        return F.cross_entropy(head_logits, head_targets)


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid)
        self.decoder = nn.Linear(nhid, ntoken)

    def forward(self, x, hidden):
        out, hidden = self.rnn(self.encoder(x), hidden)
        return out, hidden


def main(train_data, ntokens, bptt=70, lr=30.0, clip=0.25, epochs=10):
    model = RNNModel(ntokens, 400, 400)
    criterion = SplitCrossEntropyLoss(400, splits=[2800, 20000])
    params = list(model.parameters()) + list(criterion.parameters())
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, weight_decay=1.2e-6)  # expect: optimizer-misses-params
    for epoch in range(epochs):
        model.train()
        hidden = None
        for i in range(0, train_data.size(0) - 1, bptt):
            data, targets = train_data[i:i + bptt], train_data[i + 1:i + 1 + bptt]
            if hidden is not None:
                hidden = tuple(h.detach() for h in hidden)
            optimizer.zero_grad()
            output, hidden = model(data, hidden)
            loss = criterion(model.decoder.weight, model.decoder.bias, output.view(-1, output.size(-1)), targets.reshape(-1))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, clip)
            optimizer.step()
