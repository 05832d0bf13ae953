"""Pretraining a latent world model and a primitive policy on offline trajectories."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def world_model_loss(world_model, obs, actions, rewards):
    pred_obs, pred_rew = world_model(obs[:, :-1], actions)
    return F.mse_loss(pred_obs, obs[:, 1:]) + F.mse_loss(pred_rew, rewards)


def primitive_loss(policy, obs, high_level_actions):
    return F.mse_loss(policy(obs), high_level_actions)


def pretrain(world_model, policy, loader, epochs=10, lr=3e-4):
    params = list(world_model.parameters()) + list(policy.parameters())
    opt = torch.optim.Adam(params, lr=lr)
    history = []
    for epoch in range(epochs):
        world_model.train()
        policy.train()
        total_loss = 0.0
        for obs, actions, rewards, hl_actions in loader:
            wm = world_model_loss(world_model, obs, actions, rewards)
            pl = primitive_loss(policy, obs[:, :-1], hl_actions)
            loss = wm + pl
            opt.zero_grad()
            loss.backward()
            opt.step()
            total_loss += loss  # expect: running-loss-keeps-graph
        history.append(total_loss / len(loader))
        print(f"epoch {epoch}: {history[-1]}")
    return history
