"""Discrete SAC update: twin soft Q-networks, policy and temperature losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def evaluate_policy(policy_net, state):
    probs = F.softmax(policy_net(state), dim=-1)
    log_probs = torch.log(probs)  # expect: log-of-softmax
    return probs, log_probs


def update(batch, nets, optims, log_alpha, target_entropy, gamma=0.99, tau=0.005):
    policy_net, q1, q2, q1_target, q2_target = nets
    q1_opt, q2_opt, policy_opt, alpha_opt = optims
    state, action, reward, next_state, done = batch
    alpha = log_alpha.exp().detach()

    with torch.no_grad():
        next_probs, next_log_probs = evaluate_policy(policy_net, next_state)
        next_q = torch.min(q1_target(next_state), q2_target(next_state))
        next_v = (next_probs * (next_q - alpha * next_log_probs)).sum(dim=-1, keepdim=True)
        target_q = reward + (1 - done) * gamma * next_v

    q1_pred = q1(state).gather(1, action.long())
    q2_pred = q2(state).gather(1, action.long())
    q1_loss = F.mse_loss(q1_pred, target_q)
    q2_loss = F.mse_loss(q2_pred, target_q)
    q1_opt.zero_grad()
    q1_loss.backward()
    q1_opt.step()
    q2_opt.zero_grad()
    q2_loss.backward()
    q2_opt.step()

    probs, log_probs = evaluate_policy(policy_net, state)
    with torch.no_grad():
        q_min = torch.min(q1(state), q2(state))
    policy_loss = (probs * (alpha * log_probs - q_min)).sum(dim=-1).mean()
    policy_opt.zero_grad()
    policy_loss.backward()
    policy_opt.step()

    entropy = -(probs.detach() * log_probs.detach()).sum(dim=-1)
    alpha_loss = (log_alpha * (entropy - target_entropy)).mean()
    alpha_opt.zero_grad()
    alpha_loss.backward()
    alpha_opt.step()

    for tgt, src in ((q1_target, q1), (q2_target, q2)):
        for tp, p in zip(tgt.parameters(), src.parameters()):
            tp.data.copy_(tp.data * (1.0 - tau) + p.data * tau)
    return q1_loss.item(), q2_loss.item(), policy_loss.item()


if __name__ == "__main__":
    net = nn.Linear(4, 2)
    print(evaluate_policy(net, torch.randn(3, 4))[1].shape)
