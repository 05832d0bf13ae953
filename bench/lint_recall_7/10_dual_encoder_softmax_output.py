# Source: https://github.com/IBM/dstc-noesis/issues/18
# Pitfall: the response-selection dual encoder ends in a Softmax layer while the trainer's default
#   loss is CrossEntropyLoss, which applies log-softmax again; gradients are squashed.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.nn import CrossEntropyLoss


class DualEncoder(nn.Module):
    def __init__(self, vocab_size=20000, emb=200, hidden=300):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb, padding_idx=0)
        self.context_rnn = nn.LSTM(emb, hidden, batch_first=True)
        self.response_rnn = nn.LSTM(emb, hidden, batch_first=True)
        self.M = nn.Parameter(torch.empty(hidden, hidden))
        nn.init.xavier_uniform_(self.M)
        self.final_layer = nn.Softmax(dim=1)

    def forward(self, context, candidates):
        # context: (B, Lc); candidates: (B, K, Lr) -> one score per candidate
        b, k, lr = candidates.shape
        _, (c, _) = self.context_rnn(self.embedding(context))
        _, (r, _) = self.response_rnn(self.embedding(candidates.view(b * k, lr)))
        c = c[-1] @ self.M
        r = r[-1].view(b, k, -1)
        logits = torch.bmm(r, c.unsqueeze(2)).squeeze(2)
        output = self.final_layer(logits)  # expect: softmax-before-cross-entropy
        return output


class SupervisedTrainer:
    def __init__(self, model, loss_func=CrossEntropyLoss(), lr=1e-3):
        self.model = model
        self.loss_func = loss_func
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def train_batch(self, context, candidates, target):
        self.model.train()
        self.optimizer.zero_grad()
        scores = self.model(context, candidates)
        loss = self.loss_func(scores, target)
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    trainer = SupervisedTrainer(DualEncoder())
    for step in range(30):
        ctx = torch.randint(1, 20000, (16, 40))
        cands = torch.randint(1, 20000, (16, 10, 25))
        gold = torch.randint(0, 10, (16,))
        print(step, trainer.train_batch(ctx, cands, gold))
