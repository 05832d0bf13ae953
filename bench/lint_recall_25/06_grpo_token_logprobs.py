"""GRPO-style policy update for a small causal LM: per-token log-probs of sampled completions."""
import torch
import torch.nn as nn
from torch.nn.functional import log_softmax


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=1000, dim=128, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        block = nn.TransformerEncoderLayer(dim, 4, 256, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(block, layers)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, ids):
        t = ids.size(1)
        causal = torch.triu(torch.full((t, t), float("-inf")), diagonal=1)
        return self.lm_head(self.blocks(self.emb(ids), mask=causal))


def token_log_probs(logits, labels, temperature=1.0):
    logits = logits / temperature
    log_prob = log_softmax(logits)  # expect: softmax-without-dim
    log_prob = log_prob.gather(dim=-1, index=labels.unsqueeze(-1))
    return log_prob.squeeze(-1)


def group_advantages(rewards, group_size, eps=1e-4):
    grouped = rewards.view(-1, group_size)
    mean = grouped.mean(dim=1, keepdim=True)
    std = grouped.std(dim=1, keepdim=True)
    return ((grouped - mean) / (std + eps)).view(-1)


def grpo_step(policy, optimizer, sequences, action_mask, old_log_probs, rewards, group_size=4, clip_eps=0.2):
    logits = policy(sequences[:, :-1])
    new_log_probs = token_log_probs(logits, sequences[:, 1:])
    adv = group_advantages(rewards, group_size).unsqueeze(-1)
    ratio = torch.exp(new_log_probs - old_log_probs)
    surr = torch.min(ratio * adv, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv)
    mask = action_mask[:, 1:].float()
    loss = -(surr * mask).sum() / mask.sum().clamp(min=1.0)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
    optimizer.step()
    return loss.item()


def main(iters=20, batch=16, seq_len=32):
    policy = TinyCausalLM()
    optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-5)
    for it in range(iters):
        sequences = torch.randint(0, 1000, (batch, seq_len))
        action_mask = torch.zeros(batch, seq_len, dtype=torch.bool)
        action_mask[:, seq_len // 2:] = True
        with torch.no_grad():
            old = token_log_probs(policy(sequences[:, :-1]), sequences[:, 1:])
        rewards = torch.rand(batch)
        print(it, grpo_step(policy, optimizer, sequences, action_mask, old, rewards))


if __name__ == "__main__":
    main()
