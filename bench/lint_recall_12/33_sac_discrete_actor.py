"""Soft actor-critic for discrete action spaces: actor update."""
import torch
import torch.nn.functional as F
from torch.distributions import Categorical


class SACDiscrete:
    def __init__(self, actor, critic_1, critic_2, actor_optimizer, alpha=0.2):
        self.actor_local = actor
        self.critic_local = critic_1
        self.critic_local_2 = critic_2
        self.actor_optimizer = actor_optimizer
        self.alpha = alpha

    def produce_action_and_action_info(self, state):
        action_probabilities = F.softmax(self.actor_local(state), dim=-1)
        max_probability_action = torch.argmax(action_probabilities, dim=-1)
        action = Categorical(action_probabilities).sample().cpu()
        log_action_probabilities = torch.log(action_probabilities)  # expect: log-of-softmax, unguarded-zero
        return action, (action_probabilities, log_action_probabilities), max_probability_action

    def calculate_actor_loss(self, state_batch):
        action, (action_probabilities, log_action_probabilities), _ = self.produce_action_and_action_info(state_batch)
        with torch.no_grad():
            q1 = self.critic_local(state_batch)
            q2 = self.critic_local_2(state_batch)
            min_q = torch.min(q1, q2)
        inside_term = self.alpha * log_action_probabilities - min_q
        policy_loss = (action_probabilities * inside_term).sum(dim=1).mean()
        return policy_loss, log_action_probabilities

    def update_actor(self, state_batch, clip_norm=5.0):
        policy_loss, _ = self.calculate_actor_loss(state_batch)
        self.actor_optimizer.zero_grad()
        policy_loss.backward()
        torch.nn.utils.clip_grad_norm_(self.actor_local.parameters(), clip_norm)
        self.actor_optimizer.step()
        return policy_loss.item()
