"""GFlowNet with the trajectory-balance objective over a discrete environment."""
import torch
import torch.nn as nn


class GridEnv:
    def __init__(self, n_actions):
        self.n_actions = n_actions

    def get_logprobs(self, policy_outputs, actions, mask_invalid):
        logits = policy_outputs.clone().detach()  # expect: backward-without-graph
        logits[mask_invalid] = -1000.0
        logprobs = torch.log_softmax(logits, dim=1)
        return logprobs.gather(1, actions.unsqueeze(1)).squeeze(1)


class TBAgent:
    def __init__(self, env, policy: nn.Module, lr=1e-3, lr_z=1e-1):
        self.env = env
        self.policy = policy
        self.logZ = nn.Parameter(torch.zeros(1))
        self.opt = torch.optim.Adam([
            {"params": policy.parameters(), "lr": lr},
            {"params": [self.logZ], "lr": lr_z},
        ])

    def trajectory_balance_loss(self, states, actions, masks, traj_ids, log_rewards, n_traj):
        policy_outputs = self.policy(states)
        logprobs = self.env.get_logprobs(policy_outputs, actions, masks)
        sum_logprobs = torch.zeros(n_traj).index_add_(0, traj_ids, logprobs)
        return ((self.logZ + sum_logprobs - log_rewards) ** 2).mean()

    def train_step(self, batch):
        self.opt.zero_grad()
        loss = self.trajectory_balance_loss(**batch)
        loss.backward()
        self.opt.step()
        return loss.item()
