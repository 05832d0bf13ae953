# Source: https://github.com/pytorch/pytorch/issues/1840
# Pitfall: the BiLSTM-CRF tagger sums each sentence's negative log-likelihood tensor into a running total
#          for logging, which keeps the autograd graph of every sentence alive until GPU memory runs out.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab, tags, emb=32, hid=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hid // 2, bidirectional=True)
        self.emit = nn.Linear(hid, tags)
        self.transitions = nn.Parameter(torch.randn(tags, tags) * 0.1)

    def _features(self, sentence):
        out, _ = self.lstm(self.embed(sentence).unsqueeze(1))
        return self.emit(out.squeeze(1))

    def _log_partition(self, feats):
        alpha = feats[0]
        for f in feats[1:]:
            alpha = torch.logsumexp(alpha.unsqueeze(1) + self.transitions + f.unsqueeze(0), dim=0)
        return torch.logsumexp(alpha, dim=0)

    def _gold_score(self, feats, tags):
        score = feats[0, tags[0]]
        for i in range(1, len(tags)):
            score = score + self.transitions[tags[i - 1], tags[i]] + feats[i, tags[i]]
        return score

    def neg_log_likelihood(self, sentence, tags):
        feats = self._features(sentence)
        return self._log_partition(feats) - self._gold_score(feats, tags)


def train(corpus, model, epochs=3):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, weight_decay=1e-4)
    for epoch in range(epochs):
        sum_nll = 0
        for sentence, tags in corpus:
            model.zero_grad()
            nll = model.neg_log_likelihood(sentence.cuda(), tags.cuda())
            nll.backward()
            optimizer.step()
            sum_nll += nll  # expect: running-loss-keeps-graph
        print(f"epoch {epoch} mean nll {float(sum_nll) / len(corpus):.3f}")


if __name__ == "__main__":
    data = [(torch.randint(0, 300, (n,)), torch.randint(0, 5, (n,))) for n in torch.randint(5, 15, (40,)).tolist()]
    train(data, BiLSTMTagger(300, 5).cuda())
