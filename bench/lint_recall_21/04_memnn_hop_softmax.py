"""End-to-end memory network for dialogue response ranking."""
import torch
import torch.nn as nn
from torch.nn.functional import softmax


class Hop(nn.Module):
    def __init__(self, embedding_size):
        super().__init__()
        self.linear = nn.Linear(embedding_size, embedding_size, bias=False)

    def forward(self, query_embeddings, in_memory_embeddings, out_memory_embeddings, attention_mask=None):
        attention = torch.bmm(in_memory_embeddings, query_embeddings.unsqueeze(2)).squeeze(2)
        if attention_mask is not None:
            # exclude padded memories from the softmax
            attention = attention_mask.float() * attention + (1 - attention_mask.float()) * -1e20
        probs = softmax(attention).unsqueeze(1)  # expect: softmax-without-dim
        memory_output = torch.bmm(probs, out_memory_embeddings).squeeze(1)
        return memory_output + self.linear(query_embeddings)


class MemNN(nn.Module):
    def __init__(self, vocab_size, embedding_size=128, hops=3):
        super().__init__()
        self.query_embedder = nn.EmbeddingBag(vocab_size, embedding_size, mode="mean")
        self.in_memory_embedder = nn.EmbeddingBag(vocab_size, embedding_size, mode="mean")
        self.out_memory_embedder = nn.EmbeddingBag(vocab_size, embedding_size, mode="mean")
        self.hops = nn.ModuleList([Hop(embedding_size) for _ in range(hops)])

    def embed_memories(self, embedder, memories):
        bsz, n_mem, n_tok = memories.shape
        flat = embedder(memories.view(-1, n_tok))
        return flat.view(bsz, n_mem, -1)

    def forward(self, memories, memory_lengths, queries):
        in_mem = self.embed_memories(self.in_memory_embedder, memories)
        out_mem = self.embed_memories(self.out_memory_embedder, memories)
        state = self.query_embedder(queries)
        attention_mask = memory_lengths.ne(0)
        for hop in self.hops:
            state = hop(state, in_mem, out_mem, attention_mask)
        return state


def rank_candidates(model, memories, memory_lengths, queries, cand_embs, labels, optimizer):
    model.train()
    optimizer.zero_grad()
    state = model(memories, memory_lengths, queries)
    scores = state @ cand_embs.t()
    loss = nn.functional.cross_entropy(scores, labels)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    net = MemNN(vocab_size=3000)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    mems = torch.randint(0, 3000, (16, 10, 12))
    lens = torch.randint(0, 12, (16, 10))
    qs = torch.randint(0, 3000, (16, 12))
    cands = torch.randn(50, 128)
    ys = torch.randint(0, 50, (16,))
    print(rank_candidates(net, mems, lens, qs, cands, ys, opt))
