"""Engine-style training with a custom update function and an exponential LR schedule."""
import torch
import torch.nn as nn


class Engine:
    def __init__(self, process_function):
        self._process_function = process_function
        self.iteration = 0
        self.handlers = []

    def add_event_handler(self, every, fn):
        self.handlers.append((every, fn))

    def run(self, data, max_epochs=1):
        for _ in range(max_epochs):
            for batch in data:
                self.iteration += 1
                output = self._process_function(self, batch)
                for every, fn in self.handlers:
                    if self.iteration % every == 0:
                        fn(self, output)
        return self


class DummyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(1, 1)

    def forward(self, x):
        return self.net(x)


def build(lr=0.001, gamma=0.5):
    model = DummyModel()
    optim = torch.optim.SGD(model.parameters(), lr=lr)
    lr_scheduler = torch.optim.lr_scheduler.ExponentialLR(optim, gamma=gamma)

    def update_fn(engine, batch):
        lr_scheduler.step()  # expect: scheduler-before-optimizer
        x = torch.rand((4, 1))
        optim.zero_grad()
        y = model(x)
        loss = y.pow(2.0).mean()
        loss.backward()
        optim.step()
        return loss.item()

    engine = Engine(update_fn)
    engine.add_event_handler(10, lambda e, out: print(e.iteration, out, optim.param_groups[0]["lr"]))
    return engine, model, optim


if __name__ == "__main__":
    engine, _, _ = build()
    engine.run(range(50), max_epochs=2)
