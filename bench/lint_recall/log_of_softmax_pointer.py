# Source: https://github.com/pytorch/pytorch/issues/1620
# Pitfall: torch.log of a softmax module's output fed to NLLLoss gives -inf / NaN gradients
# once a probability underflows (LogSoftmax would be exact).
# Reproduced in our own words, not the original code.
import torch
from torch import nn

sm = nn.Softmax(dim=1)
crit = nn.NLLLoss()
model = nn.Linear(3, 3, bias=False)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
data = torch.tensor([[0.0, 50.0, -50.0]])
target = torch.tensor([1])

for _ in range(100):
    optimizer.zero_grad()
    loss = crit(torch.log(sm(model(data))), target)  # expect: log-of-softmax
    loss.backward()
    optimizer.step()
