"""ACER trust-region update: project the policy gradient using the KL to the average policy."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.lstm = nn.LSTMCell(hidden, hidden)
        self.fc_actor = nn.Linear(hidden, n_actions)
        self.fc_critic = nn.Linear(hidden, n_actions)

    def forward(self, x, hidden):
        h = F.relu(self.fc1(x))
        hx, cx = self.lstm(h, hidden)
        policy = F.softmax(self.fc_actor(hx), dim=1).clamp(max=1 - 1e-20)
        Q = self.fc_critic(hx)
        V = (Q * policy).sum(1, keepdim=True)
        return policy, Q, V, (hx, cx)


def trust_region_loss(model, distribution, ref_distribution, loss, threshold):
    model.zero_grad()
    loss.backward(retain_graph=True)
    g = [p.grad.clone() if p.grad is not None else torch.zeros_like(p) for p in model.parameters()]
    model.zero_grad()

    kl = F.kl_div(distribution.log(), ref_distribution, reduction="batchmean")  # expect: log-of-softmax
    kl.backward(retain_graph=True)
    k = [p.grad.clone() if p.grad is not None else torch.zeros_like(p) for p in model.parameters()]
    model.zero_grad()

    k_dot_g = sum(torch.sum(k_p * g_p) for k_p, g_p in zip(k, g))
    k_dot_k = sum(torch.sum(k_p ** 2) for k_p in k)
    if k_dot_k.item() > 0:
        trust_factor = ((k_dot_g - threshold) / k_dot_k).clamp(min=0)
    else:
        trust_factor = torch.zeros(1)
    return [g_p - trust_factor * k_p for g_p, k_p in zip(g, k)]


def apply_gradients(model, optimiser, grads, max_norm=40):
    for p, g in zip(model.parameters(), grads):
        p.grad = g
    nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    optimiser.step()


if __name__ == "__main__":
    model = ActorCritic(4, 2)
    avg_model = ActorCritic(4, 2)
    avg_model.load_state_dict(model.state_dict())
    optimiser = torch.optim.RMSprop(model.parameters(), lr=1e-4)
    x = torch.randn(8, 4)
    hidden = (torch.zeros(8, 32), torch.zeros(8, 32))
    policy, Q, V, _ = model(x, hidden)
    with torch.no_grad():
        avg_policy = avg_model(x, hidden)[0]
    actions = policy.multinomial(1)
    log_prob = torch.distributions.Categorical(probs=policy).log_prob(actions.squeeze(1))
    loss = -(log_prob * (Q.gather(1, actions) - V).detach().squeeze(1)).mean()
    grads = trust_region_loss(model, policy, avg_policy, loss, threshold=1.0)
    apply_gradients(model, optimiser, grads)
