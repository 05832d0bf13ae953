"""A3C with data parallelism: worker processes play, the main process computes the A2C loss."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.multiprocessing as mp

GAMMA, REWARD_STEPS, BATCH_SIZE, ENTROPY_BETA, CLIP_GRAD = 0.99, 4, 128, 0.01, 0.1


class AtariA2C(nn.Module):
    def __init__(self, input_shape=(4, 84, 84), n_actions=6):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(input_shape[0], 32, 8, 4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, 2), nn.ReLU(),
            nn.Conv2d(64, 64, 3, 1), nn.ReLU(), nn.Flatten(),
        )
        self.policy = nn.Sequential(nn.Linear(3136, 512), nn.ReLU(), nn.Linear(512, n_actions))
        self.value = nn.Sequential(nn.Linear(3136, 512), nn.ReLU(), nn.Linear(512, 1))

    def forward(self, x):
        h = self.conv(x.float() / 256)
        return self.policy(h), self.value(h)


def unpack_batch(batch, net, device):
    states, actions, rewards, not_done_idx, last_states = [], [], [], [], []
    for idx, (state, action, reward, last_state) in enumerate(batch):
        states.append(state)
        actions.append(action)
        rewards.append(reward)
        if last_state is not None:
            not_done_idx.append(idx)
            last_states.append(last_state)
    states_v = torch.tensor(np.array(states), device=device)
    actions_t = torch.tensor(actions, dtype=torch.long, device=device)
    rewards_np = np.array(rewards, dtype=np.float32)
    if not_done_idx:
        with torch.no_grad():
            last_vals_v = net(torch.tensor(np.array(last_states), device=device))[1]
        rewards_np[not_done_idx] += GAMMA ** REWARD_STEPS * last_vals_v.squeeze(-1).cpu().numpy()
    return states_v, actions_t, torch.tensor(rewards_np, device=device)


def train_on_batch(net, optimizer, batch, device):
    states_v, actions_t, vals_ref_v = unpack_batch(batch, net, device)
    optimizer.zero_grad()
    logits_v, value_v = net(states_v)
    loss_value_v = F.mse_loss(value_v, vals_ref_v)  # expect: loss-shape-broadcast

    log_prob_v = F.log_softmax(logits_v, dim=1)
    adv_v = vals_ref_v - value_v.squeeze(-1).detach()
    log_prob_actions_v = adv_v * log_prob_v[range(BATCH_SIZE), actions_t]
    loss_policy_v = -log_prob_actions_v.mean()
    prob_v = F.softmax(logits_v, dim=1)
    entropy_loss_v = ENTROPY_BETA * (prob_v * log_prob_v).sum(dim=1).mean()

    loss_v = entropy_loss_v + loss_value_v + loss_policy_v
    loss_v.backward()
    nn.utils.clip_grad_norm_(net.parameters(), CLIP_GRAD)
    optimizer.step()
    return loss_v.item()


if __name__ == "__main__":
    mp.set_start_method("spawn", force=True)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = AtariA2C().to(device)
    net.share_memory()
    optimizer = torch.optim.Adam(net.parameters(), lr=0.001, eps=1e-3)
    fake = [(np.random.randint(0, 255, (4, 84, 84), dtype=np.uint8), np.random.randint(6), 1.0,
             None if i % 7 == 0 else np.random.randint(0, 255, (4, 84, 84), dtype=np.uint8)) for i in range(BATCH_SIZE)]
    print(train_on_batch(net, optimizer, fake, device))
