# Source: https://github.com/thinking-machines-lab/tinker-cookbook/pull/188
# Pitfall: the DPO-style preference loss computes -torch.log(torch.sigmoid(margin)) in two steps; for a
# large negative margin the sigmoid underflows to 0, the loss is inf and the gradients NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def sequence_logprob(logits, tokens, mask):
    logp = torch.log_softmax(logits, dim=-1).gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
    return (logp * mask).sum(-1)


def preference_loss(policy_chosen, policy_rejected, ref_chosen, ref_rejected, beta=0.1):
    chosen_ratio = policy_chosen - ref_chosen
    rejected_ratio = policy_rejected - ref_rejected
    margin = beta * (chosen_ratio - rejected_ratio)
    losses = -torch.log(torch.sigmoid(margin))  # expect: log-of-softmax
    return losses.mean(), margin.detach()


class TinyLM(nn.Module):
    def __init__(self, vocab=500, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def train_step(policy, reference, optimizer, chosen, rejected, mask):
    policy.train()
    with torch.no_grad():
        ref_c = sequence_logprob(reference(chosen[:, :-1]), chosen[:, 1:], mask)
        ref_r = sequence_logprob(reference(rejected[:, :-1]), rejected[:, 1:], mask)
    pol_c = sequence_logprob(policy(chosen[:, :-1]), chosen[:, 1:], mask)
    pol_r = sequence_logprob(policy(rejected[:, :-1]), rejected[:, 1:], mask)
    loss, margin = preference_loss(pol_c, pol_r, ref_c, ref_r)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item(), (margin > 0).float().mean().item()


if __name__ == "__main__":
    policy, reference = TinyLM(), TinyLM()
    reference.load_state_dict(policy.state_dict())
    reference.eval()
    opt = torch.optim.AdamW(policy.parameters(), lr=1e-4)
    chosen = torch.randint(0, 500, (8, 33))
    rejected = torch.randint(0, 500, (8, 33))
    mask = torch.ones(8, 32)
    for step in range(3):
        print(step, train_step(policy, reference, opt, chosen, rejected, mask))
