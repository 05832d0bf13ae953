"""Minimal RL framework pieces: a policy with parameter export and a model manager
that keeps the parameters of the best-scoring policy seen so far."""
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim


class BasePolicy(nn.Module):
    def __init__(self, obs_dim, n_actions, lr=1e-3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, n_actions))
        self.optimizer = optim.Adam(self.parameters(), lr=lr)

    def forward(self, obs):
        return self.net(obs)

    def get_model_params(self):
        return self.state_dict()  # expect: state-dict-not-copied

    def put_model_params(self, model_params):
        self.load_state_dict(model_params)

    def update(self, obs, actions, returns):
        logits = self(obs)
        log_probs = torch.log_softmax(logits, dim=-1).gather(1, actions.unsqueeze(1)).squeeze(1)
        loss = -(log_probs * returns).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


class ModelMgr:
    def __init__(self, policy):
        self.policy = policy
        self.best_reward = -np.inf
        self.best_params = None

    def on_eval(self, eval_reward):
        if eval_reward > self.best_reward:
            self.best_reward = eval_reward
            self.best_params = self.policy.get_model_params()

    def restore_best(self):
        if self.best_params is not None:
            self.policy.put_model_params(self.best_params)
