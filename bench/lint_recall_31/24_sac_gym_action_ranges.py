"""Build SAC trainer parameters for a continuous-control gym environment (with action rescaling)."""
import gym
import numpy as np
import torch
import torch.nn as nn


def mlp(sizes, act=nn.ReLU, out_act=nn.Identity):
    layers = []
    for i in range(len(sizes) - 1):
        layers += [nn.Linear(sizes[i], sizes[i + 1]), act() if i < len(sizes) - 2 else out_act()]
    return nn.Sequential(*layers)


class SACTrainerParams:
    def __init__(self, q1, q2, actor, min_train, max_train, min_serve, max_serve, alpha_optimizer):
        self.q1_network, self.q2_network, self.actor_network = q1, q2, actor
        self.min_action_range_tensor_training = min_train
        self.max_action_range_tensor_training = max_train
        self.min_action_range_tensor_serving = min_serve
        self.max_action_range_tensor_serving = max_serve
        self.alpha_optimizer = alpha_optimizer

    def rescale(self, action):
        """Map the actor's tanh output in [-1, 1] to the environment's action box."""
        low, high = self.min_action_range_tensor_serving, self.max_action_range_tensor_serving
        return low + (action + 1.0) * 0.5 * (high - low)


def get_sac_trainer_params(env, hidden=256, use_gpu=True):
    obs_dim = env.observation_space.shape[0]
    act_dim = env.action_space.shape[0]
    q1_network = mlp([obs_dim + act_dim, hidden, hidden, 1])
    q2_network = mlp([obs_dim + act_dim, hidden, hidden, 1])
    actor_network = mlp([obs_dim, hidden, hidden, 2 * act_dim])

    min_action_range_tensor_training = torch.full((1, act_dim), -1 + 1e-6)
    max_action_range_tensor_training = torch.full((1, act_dim), 1 - 1e-6)
    min_action_range_tensor_serving = torch.from_numpy(env.action_space.low).float().unsqueeze(0)
    max_action_range_tensor_serving = torch.from_numpy(env.action_space.high).float().unsqueeze(0)

    if use_gpu and torch.cuda.is_available():
        q1_network.cuda()
        q2_network.cuda()
        actor_network.cuda()
        min_action_range_tensor_training.cuda()  # expect: tensor-op-result-discarded
        max_action_range_tensor_training = max_action_range_tensor_training.cuda()
        min_action_range_tensor_serving = min_action_range_tensor_serving.cuda()
        max_action_range_tensor_serving = max_action_range_tensor_serving.cuda()

    log_alpha = torch.zeros(1, requires_grad=True, device="cuda" if use_gpu and torch.cuda.is_available() else "cpu")
    alpha_optimizer = torch.optim.Adam([log_alpha], lr=3e-4)
    return SACTrainerParams(q1_network, q2_network, actor_network,
                            min_action_range_tensor_training, max_action_range_tensor_training,
                            min_action_range_tensor_serving, max_action_range_tensor_serving,
                            alpha_optimizer)


if __name__ == "__main__":
    environment = gym.make("Pendulum-v1")
    params = get_sac_trainer_params(environment)
    print(params.rescale(torch.zeros(1, 1, device=params.max_action_range_tensor_serving.device)))
    print(np.asarray(environment.action_space.high))
