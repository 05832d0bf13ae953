# Source: https://github.com/isayev/ReLeaSE/issues/39
# Pitfall: the policy-gradient loss is accumulated from log_probs[...].item() times the reward, i.e.
#   from plain numbers; backward() then reaches no generator parameter and the weights never change.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = list("<>CNOcno()=#123")


class StackRNNGenerator(nn.Module):
    def __init__(self, vocab_size=len(VOCAB), hidden=256):
        super().__init__()
        self.hidden_size = hidden
        self.emb = nn.Embedding(vocab_size, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, vocab_size)

    def init_hidden(self):
        return torch.zeros(1, self.hidden_size)

    def forward(self, token, hidden):
        hidden = self.cell(self.emb(token), hidden)
        return self.out(hidden), hidden

    @torch.no_grad()
    def sample(self, max_len=60):
        hidden, token, seq = self.init_hidden(), torch.tensor([0]), [0]
        for _ in range(max_len):
            logits, hidden = self(token, hidden)
            token = torch.multinomial(F.softmax(logits, dim=-1), 1).view(1)
            seq.append(token.item())
            if token.item() == 1:
                break
        return torch.tensor(seq)


def reward_fn(trajectory):
    return float((trajectory == VOCAB.index("C")).sum()) / 10.0


def policy_gradient(generator, optimizer, n_batch=10, gamma=0.97):
    generator.train()
    optimizer.zero_grad()
    rl_loss = torch.zeros((), requires_grad=True)
    total_reward = 0.0
    for _ in range(n_batch):
        trajectory = generator.sample()
        reward = reward_fn(trajectory)
        discounted_reward = reward
        total_reward += reward
        hidden = generator.init_hidden()
        for p in range(len(trajectory) - 1):
            output, hidden = generator(trajectory[p].view(1), hidden)
            log_probs = F.log_softmax(output, dim=1)
            top_i = trajectory[p + 1]
            rl_loss = rl_loss - log_probs[0, top_i].item() * discounted_reward  # expect: backward-without-graph
            discounted_reward = discounted_reward * gamma
    rl_loss = rl_loss / n_batch
    rl_loss.backward()
    optimizer.step()
    return total_reward / n_batch, rl_loss.item()


if __name__ == "__main__":
    gen = StackRNNGenerator()
    opt = torch.optim.Adadelta(gen.parameters(), lr=0.001)
    for it in range(20):
        print(it, policy_gradient(gen, opt))
