# Source: https://github.com/sunwuzhou03/reinforcement-learning-lab/issues/1
# Pitfall: the critic's (64, 1) Q estimate is regressed on a (64, 4) TD target because the
# log-probability was not summed over action dimensions.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def update_critic(critic, critic_opt, actor, target_critic, states, actions, rewards, next_states, dones,
                  gamma=0.99, alpha=0.2):
    with torch.no_grad():
        dist = actor(next_states)
        next_actions = dist.rsample()
        log_prob = dist.log_prob(next_actions)  # (64, 4): not summed
        td_target = rewards + gamma * (1 - dones) * (target_critic(next_states, next_actions) - alpha * log_prob)
    critic_loss = F.mse_loss(critic(states, actions), td_target.detach())  # expect: loss-shape-broadcast
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()
