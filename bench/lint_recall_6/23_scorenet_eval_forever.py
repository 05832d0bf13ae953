# Source: https://github.com/ermongroup/ncsn/issues/2
# Pitfall: the annealed runner evaluates the denoising score-matching loss on the test batch with eval() and
#   never calls train() again, so after the first log every later training step runs in eval mode.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class ScoreNet(nn.Module):
    def __init__(self, ch=32, n_sigmas=10):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.GroupNorm(8, ch), nn.ELU(),
                                 nn.Dropout(0.1), nn.Conv2d(ch, 1, 3, padding=1))
        self.sigma_embed = nn.Embedding(n_sigmas, ch)

    def forward(self, x, labels):
        return self.net(x) / (1.0 + labels.float().view(-1, 1, 1, 1))


def dsm_loss(scorenet, x, sigmas, labels):
    used = sigmas[labels].view(-1, 1, 1, 1)
    perturbed = x + torch.randn_like(x) * used
    target = -(perturbed - x) / (used ** 2)
    scores = scorenet(perturbed, labels)
    return (0.5 * ((scores - target) ** 2).sum(dim=(1, 2, 3)) * used.squeeze() ** 2).mean()


def train(scorenet, loader, test_batch, sigmas, steps=1000):
    optimizer = torch.optim.Adam(scorenet.parameters(), lr=1e-3)
    step = 0
    scorenet.train()
    for x, _ in loader:
        labels = torch.randint(0, len(sigmas), (x.shape[0],))
        loss = dsm_loss(scorenet, x, sigmas, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        if step % 100 == 0:
            scorenet.eval()  # expect: train-mode-not-restored
            with torch.no_grad():
                test_labels = torch.randint(0, len(sigmas), (test_batch.shape[0],))
                test_loss = dsm_loss(scorenet, test_batch, sigmas, test_labels)
            print(step, loss.item(), test_loss.item())
        if step >= steps:
            break
