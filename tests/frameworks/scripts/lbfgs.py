import torch
from torch import nn
torch.manual_seed(0)
x = torch.linspace(-1, 1, 64).unsqueeze(1); y = x.pow(3)
m = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.LBFGS(m.parameters(), lr=0.5, max_iter=20)
for i in range(15):
    def closure():
        opt.zero_grad()
        loss = nn.functional.mse_loss(m(x), y)
        loss.backward()
        return loss
    l = opt.step(closure)
    print(i, float(l))
