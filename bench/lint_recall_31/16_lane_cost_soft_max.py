"""Differentiable lane / proximity costs for a model-predictive driving policy."""
import torch
import torch.nn as nn


def proximity_mask(bsize, npred, crop_h, crop_w, speed, car_size=(6.4, 14.3), safe_factor=1.5, device="cpu"):
    width, length = car_size
    ys = torch.linspace(-1.0, 1.0, crop_h, device=device).view(1, 1, crop_h, 1)
    xs = torch.linspace(-1.0, 1.0, crop_w, device=device).view(1, 1, 1, crop_w)
    safe_dist = (speed.view(bsize, npred, 1, 1).abs() * safe_factor + length) / 100.0
    y_term = torch.clamp(1 - ys.abs() / (width / 20.0), min=0)
    x_term = torch.clamp(1 - xs.abs() / safe_dist, min=0)
    return y_term * x_term


def proximity_cost(images, speed, green_channel=1):
    bsize, npred, nchannels, crop_h, crop_w = images.size()
    mask = proximity_mask(bsize, npred, crop_h, crop_w, speed, safe_factor=1.5, device=images.device)
    cars = images[:, :, green_channel].float()
    costs = torch.log(torch.sum(torch.exp(mask * cars).view(bsize, npred, -1), 2))  # expect: unshifted-logsumexp
    return costs, mask


def lane_cost(images, speed):
    bsize, npred, nchannels, crop_h, crop_w = images.size()
    mask = proximity_mask(bsize, npred, crop_h, crop_w, speed, device=images.device)
    lanes = images[:, :, 0].float()
    costs = torch.log(torch.sum(torch.exp(mask * lanes).view(bsize, npred, -1), 2))  # expect: unshifted-logsumexp
    return costs.view(bsize, npred)


class Policy(nn.Module):
    def __init__(self, n_actions=2, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 117 * 24, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, frame):
        return torch.tanh(self.net(frame))


def train_policy(policy, forward_model, batches, lambda_lane=0.2, lr=1e-4):
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    for inputs, speed in batches:
        actions = policy(inputs[:, -1])
        pred_images = forward_model(inputs, actions)
        prox, _ = proximity_cost(pred_images, speed)
        cost = prox.mean() + lambda_lane * lane_cost(pred_images, speed).mean()
        opt.zero_grad()
        cost.backward()
        opt.step()
    return cost.item()


if __name__ == "__main__":
    pol = Policy()

    def fake_forward_model(inputs, actions):
        return inputs.unsqueeze(1).expand(-1, 5, -1, -1, -1, -1)[:, :, -1] + actions.sum() * 0

    data = [(torch.rand(4, 20, 3, 117, 24), torch.rand(4, 5)) for _ in range(3)]
    print(train_policy(pol, fake_forward_model, data))
