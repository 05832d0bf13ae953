# Source: https://github.com/tk-rusch/coRNN/issues/1
# Pitfall: The training loop calls model.eval() for the periodic test evaluation and never switches back
# with model.train(), so all later training iterations run in eval mode.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def adding_problem_batch(batch, length, device):
    values = torch.rand(batch, length, 1, device=device)
    marks = torch.zeros(batch, length, 1, device=device)
    idx = torch.stack([torch.randperm(length)[:2] for _ in range(batch)]).to(device)
    marks.scatter_(1, idx.unsqueeze(-1), 1.0)
    target = (values * marks).sum(dim=1)
    return torch.cat([values, marks], dim=-1).transpose(0, 1), target


def run(model, steps, batch, length, lr, device):
    objective = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for step in range(steps):
        inputs, target = adding_problem_batch(batch, length, device)
        optimizer.zero_grad()
        loss = objective(model(inputs), target)
        loss.backward()
        optimizer.step()
        if step % 100 == 0:
            model.eval()  # expect: train-mode-not-restored
            with torch.no_grad():
                test_in, test_target = adding_problem_batch(1000, length, device)
                test_mse = objective(model(test_in), test_target).item()
            print(step, test_mse)
