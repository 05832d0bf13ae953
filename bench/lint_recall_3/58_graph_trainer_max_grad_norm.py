# Source: https://github.com/awslabs/graphstorm/issues/1366
# Pitfall: The node-prediction trainer applies --max-grad-norm clipping after optimizer.step(); the
# next iteration zeroes the gradients before they are used again, so the option silently does nothing.
# Reproduced in our own words, not the original code.
import torch as th


class NodePredictionTrainer:
    def __init__(self, model, optimizer, max_grad_norm=None, grad_norm_type=2.0):
        self.model = model
        self.optimizer = optimizer
        self.max_grad_norm = max_grad_norm
        self.grad_norm_type = grad_norm_type

    def fit(self, loader, loss_func, num_epochs, device):
        for epoch in range(num_epochs):
            self.model.train()
            for input_nodes, seeds, blocks, labels in loader:
                blocks = [b.to(device) for b in blocks]
                logits = self.model(blocks, input_nodes)
                loss = loss_func(logits, labels.to(device))
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                if self.max_grad_norm is not None:
                    th.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm, self.grad_norm_type)  # expect: clip-after-step
