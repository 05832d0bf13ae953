"""A3C worker for a continuous-action task: computes actor and critic losses from a rollout."""
import torch
import torch.nn.functional as F
from torch.distributions import Normal


class Worker:
    def __init__(self, local_policy, local_value, global_policy, global_value, optimizers, gamma=0.99):
        self.local_policyNet = local_policy
        self.local_valueNet = local_value
        self.global_policyNet = global_policy
        self.global_valueNet = global_value
        self.opt_policy, self.opt_value = optimizers
        self.gamma = gamma
        self.memory = []

    def act(self, state):
        mu, sigma = self.local_policyNet(torch.as_tensor(state, dtype=torch.float).unsqueeze(0))
        dist = Normal(mu, sigma)
        action = dist.sample()
        return action, dist.log_prob(action)

    def calculate_loss(self):
        states = torch.tensor([t[0] for t in self.memory], dtype=torch.float)
        log_probs = torch.tensor([t[1] for t in self.memory], dtype=torch.float)  # expect: backward-without-graph
        rewards = [t[2] for t in self.memory]
        returns = []
        running = 0.0
        for r in reversed(rewards):
            running = r + self.gamma * running
            returns.insert(0, running)
        returns = torch.tensor(returns, dtype=torch.float).view(-1, 1)
        V = self.local_valueNet(states)
        value_loss = F.mse_loss(V, returns)
        mu, sigma = self.local_policyNet(states)
        entropy = Normal(mu, sigma).entropy()
        advantage = (returns - V).detach()
        policy_loss = -(log_probs.view(-1, 1) * advantage + 0.005 * entropy).mean()
        return policy_loss, value_loss

    def update_global(self):
        policy_loss, value_loss = self.calculate_loss()
        self.opt_policy.zero_grad()
        policy_loss.backward()
        for lp, gp in zip(self.local_policyNet.parameters(), self.global_policyNet.parameters()):
            gp._grad = lp.grad
        self.opt_policy.step()
        self.opt_value.zero_grad()
        value_loss.backward()
        for lp, gp in zip(self.local_valueNet.parameters(), self.global_valueNet.parameters()):
            gp._grad = lp.grad
        self.opt_value.step()
        self.memory.clear()
