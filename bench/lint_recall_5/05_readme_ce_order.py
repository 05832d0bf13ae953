# Source: https://github.com/huggingface/transformers/pull/6642
# Pitfall: a usage snippet calls F.cross_entropy(labels, logits): the integer labels are passed as the input
#          and the model scores as the target, the reverse of the documented (input, target) order.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
from torch import nn


class SentenceClassifier(nn.Module):
    def __init__(self, vocab_size=1000, dim=64, num_labels=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab_size, dim)
        self.head = nn.Linear(dim, num_labels)

    def forward(self, token_ids):
        return self.head(self.emb(token_ids))


def finetune_step(model, optimizer, token_ids, labels):
    model.train()
    optimizer.zero_grad()
    logits = model(token_ids)
    loss = F.cross_entropy(labels, logits)  # expect: loss-arguments-swapped
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    clf = SentenceClassifier()
    opt = torch.optim.AdamW(clf.parameters(), lr=3e-4)
    for _ in range(10):
        ids = torch.randint(0, 1000, (8, 20))
        y = torch.randint(0, 3, (8,))
        print(finetune_step(clf, opt, ids, y))
