"""Training a Lyapunov-function network with an LBFGS-style closure and a loss history."""
import torch
import torch.nn as nn


class LyapunovNet(nn.Module):
    def __init__(self, x_dim, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(x_dim, hidden), nn.LeakyReLU(0.1), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x) - self.net(torch.zeros_like(x))


def lyapunov_derivative_loss(V, dynamics, x_samples, margin=0.01):
    v = V(x_samples)
    v_next = V(dynamics(x_samples))
    positivity = torch.relu(margin * x_samples.norm(p=1, dim=1, keepdim=True) - v)
    decrease = torch.relu(v_next - v + margin * v)
    return positivity.mean() + decrease.mean()


def train_lyapunov(V, dynamics, x_samples, max_iterations=200, lr=0.1):
    optimizer = torch.optim.LBFGS(V.parameters(), lr=lr, line_search_fn="strong_wolfe")
    losses = []

    def closure():
        optimizer.zero_grad()
        loss = lyapunov_derivative_loss(V, dynamics, x_samples)
        loss.backward()
        return loss

    for it in range(max_iterations):
        loss = optimizer.step(closure)
        losses.append(loss)  # expect: running-loss-keeps-graph
        if it % 20 == 0:
            print(f"iter {it}: loss {float(loss):.6f}")
        if float(loss) < 1e-6:
            break
    return losses


if __name__ == "__main__":
    A = torch.tensor([[0.9, 0.2], [-0.1, 0.8]])
    V = LyapunovNet(2)
    xs = torch.rand(1000, 2) * 2 - 1
    history = train_lyapunov(V, lambda x: x @ A.T, xs)
