"""Minimal PPO for a discrete-action gym environment."""
import gym
import torch
import torch.nn as nn
from torch.distributions import Categorical

device = torch.device("cpu")


class Memory:
    def __init__(self):
        self.actions, self.states, self.logprobs, self.rewards, self.is_terminals = [], [], [], [], []

    def clear(self):
        self.__init__()


class ActorCritic(nn.Module):
    def __init__(self, state_dim, action_dim, n_latent_var):
        super().__init__()
        self.action_layer = nn.Sequential(
            nn.Linear(state_dim, n_latent_var),
            nn.Tanh(),
            nn.Linear(n_latent_var, n_latent_var),
            nn.Tanh(),
            nn.Linear(n_latent_var, action_dim),
            nn.Softmax(),  # expect: softmax-without-dim
        )
        self.value_layer = nn.Sequential(
            nn.Linear(state_dim, n_latent_var),
            nn.Tanh(),
            nn.Linear(n_latent_var, 1),
        )

    def act(self, state, memory):
        state = torch.from_numpy(state).float().to(device)
        dist = Categorical(self.action_layer(state))
        action = dist.sample()
        memory.states.append(state)
        memory.actions.append(action)
        memory.logprobs.append(dist.log_prob(action))
        return action.item()

    def evaluate(self, state, action):
        dist = Categorical(self.action_layer(state))
        return dist.log_prob(action), torch.squeeze(self.value_layer(state), -1), dist.entropy()


class PPO:
    def __init__(self, state_dim, action_dim, n_latent_var=64, lr=2e-3, gamma=0.99, K_epochs=4, eps_clip=0.2):
        self.gamma, self.K_epochs, self.eps_clip = gamma, K_epochs, eps_clip
        self.policy = ActorCritic(state_dim, action_dim, n_latent_var).to(device)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.policy_old = ActorCritic(state_dim, action_dim, n_latent_var).to(device)
        self.policy_old.load_state_dict(self.policy.state_dict())
        self.MseLoss = nn.MSELoss()

    def update(self, memory):
        rewards, discounted = [], 0.0
        for reward, done in zip(reversed(memory.rewards), reversed(memory.is_terminals)):
            discounted = 0.0 if done else discounted
            discounted = reward + self.gamma * discounted
            rewards.insert(0, discounted)
        rewards = torch.tensor(rewards, dtype=torch.float32, device=device)
        rewards = (rewards - rewards.mean()) / (rewards.std() + 1e-5)

        old_states = torch.stack(memory.states).detach()
        old_actions = torch.stack(memory.actions).detach()
        old_logprobs = torch.stack(memory.logprobs).detach()
        for _ in range(self.K_epochs):
            logprobs, state_values, dist_entropy = self.policy.evaluate(old_states, old_actions)
            ratios = torch.exp(logprobs - old_logprobs)
            advantages = rewards - state_values.detach()
            surr1 = ratios * advantages
            surr2 = torch.clamp(ratios, 1 - self.eps_clip, 1 + self.eps_clip) * advantages
            loss = -torch.min(surr1, surr2) + 0.5 * self.MseLoss(state_values, rewards) - 0.01 * dist_entropy
            self.optimizer.zero_grad()
            loss.mean().backward()
            self.optimizer.step()
        self.policy_old.load_state_dict(self.policy.state_dict())


def main(env_name="CartPole-v1", max_episodes=500, update_timestep=2000):
    env = gym.make(env_name)
    memory = Memory()
    ppo = PPO(env.observation_space.shape[0], env.action_space.n)
    timestep = 0
    for episode in range(max_episodes):
        state, _ = env.reset()
        for _ in range(300):
            timestep += 1
            action = ppo.policy_old.act(state, memory)
            state, reward, terminated, truncated, _ = env.step(action)
            memory.rewards.append(reward)
            memory.is_terminals.append(terminated or truncated)
            if timestep % update_timestep == 0:
                ppo.update(memory)
                memory.clear()
            if terminated or truncated:
                break


if __name__ == "__main__":
    main()
