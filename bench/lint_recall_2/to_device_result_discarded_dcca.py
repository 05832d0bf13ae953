# Source: https://github.com/Michaelvll/DeepCCA/issues/17
# Pitfall: The two views are "moved" with x1.to(device) and x2.to(device) as bare statements; .to() is not in-place, so the batches stay on the CPU while the model lives on the GPU.
# Reproduced in our own words, not the original code.
import torch


class CCASolver:
    def __init__(self, model, loss_fn, device, lr=1e-3, epochs=10, batch_size=800):
        self.model = model.to(device)
        self.loss = loss_fn
        self.device = device
        self.epochs = epochs
        self.batch_size = batch_size
        self.optimizer = torch.optim.RMSprop(self.model.parameters(), lr=lr)

    def fit(self, x1, x2):
        x1.to(self.device)  # expect: tensor-op-result-discarded
        x2.to(self.device)  # expect: tensor-op-result-discarded
        n = x1.size(0)
        for epoch in range(self.epochs):
            self.model.train()
            perm = torch.randperm(n)
            for start in range(0, n, self.batch_size):
                idx = perm[start:start + self.batch_size]
                self.optimizer.zero_grad()
                o1, o2 = self.model(x1[idx], x2[idx])
                loss = self.loss(o1, o2)
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch} loss {loss.item():.4f}")
