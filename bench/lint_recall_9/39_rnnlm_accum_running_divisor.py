# Source: https://github.com/hirofumi0810/neural_sp/pull/170
# Pitfall: the LM trainer accumulates over accum_grad_n_steps batches but divides each loss by the running
#   counter (1, 2, 3, ...) instead of the step count, so the summed gradient is not the average of the batches.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn


class RNNLM(nn.Module):
    def __init__(self, vocab, emb=512, hidden=1024, layers=2, dropout=0.2):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hidden, layers, dropout=dropout, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, ys, state=None):
        h, state = self.rnn(self.embed(ys[:, :-1]), state)
        logits = self.out(h)
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), ys[:, 1:].reshape(-1))
        return loss, state

    @staticmethod
    def repackage_state(state):
        return tuple(s.detach() for s in state)


def main(train_set, vocab):
    parser = argparse.ArgumentParser()
    parser.add_argument("--accum_grad_n_steps", type=int, default=4)
    parser.add_argument("--clip_grad_norm", type=float, default=1.0)
    parser.add_argument("--n_epochs", type=int, default=20)
    args = parser.parse_args()

    model = RNNLM(vocab).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    accum_grad_n_steps = args.accum_grad_n_steps
    hidden = None
    accum_n_steps = 0
    for ep in range(args.n_epochs):
        model.train()
        for ys_train, is_new_epoch in train_set:
            accum_n_steps += 1
            loss, hidden = model(ys_train.cuda(), state=hidden)
            loss = loss / accum_n_steps  # expect: accumulation-not-averaged
            loss.backward()
            if accum_n_steps >= accum_grad_n_steps or is_new_epoch:
                if args.clip_grad_norm > 0:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip_grad_norm)
                optimizer.step()
                optimizer.zero_grad()
                accum_n_steps = 0
            hidden = model.repackage_state(hidden)
        print(f"epoch {ep} done, last loss {loss.item():.4f}")
