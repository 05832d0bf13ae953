# Source: https://github.com/nishnik/Deep-Semantic-Similarity-Model-PyTorch/issues/2
# Pitfall: the ranking model softmaxes the cosine scores over the candidate documents and then
#   hands them to nn.CrossEntropyLoss, which softmaxes again; the maintainer called it a mistake.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn

N_NEG = 4
GAMMA = 10.0


class TowerEncoder(nn.Module):
    def __init__(self, vocab_hash, hidden, out_dim):
        super().__init__()
        self.conv = nn.Conv1d(vocab_hash, hidden, kernel_size=3, padding=1)
        self.proj = nn.Linear(hidden, out_dim)

    def forward(self, x):
        h = torch.tanh(self.conv(x))
        h = h.max(dim=2).values
        return torch.tanh(self.proj(h))


class SemanticMatcher(nn.Module):
    def __init__(self, vocab_hash=3000, hidden=300, out_dim=128):
        super().__init__()
        self.query_tower = TowerEncoder(vocab_hash, hidden, out_dim)
        self.doc_tower = TowerEncoder(vocab_hash, hidden, out_dim)
        self.rank_softmax = nn.Softmax(dim=1)

    def forward(self, query, pos_doc, neg_docs):
        q = self.query_tower(query)
        docs = [self.doc_tower(pos_doc)] + [self.doc_tower(d) for d in neg_docs]
        scores = torch.stack([nn.functional.cosine_similarity(q, d, dim=1) for d in docs], dim=1)
        return self.rank_softmax(GAMMA * scores)


model = SemanticMatcher()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for step in range(1000):
    query = torch.rand(8, 3000, 12)
    pos_doc = torch.rand(8, 3000, 20)
    neg_docs = [torch.rand(8, 3000, 20) for _ in range(N_NEG)]
    target = torch.zeros(8, dtype=torch.long)  # the positive document is always column 0

    optimizer.zero_grad()
    ranked = model(query, pos_doc, neg_docs)
    loss = criterion(ranked, target)  # expect: softmax-before-cross-entropy
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        print(step, loss.item())
