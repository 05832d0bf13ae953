"""Plain linear regression on synthetic data: y = 10 + 9 x0 - 2 x1 + noise."""
import torch
import torch.nn as nn


def make_data(sample_size=100):
    x = torch.randn((sample_size, 2))
    eps = torch.randn(sample_size)
    y = 10 + 9 * x[:, 0] - 2 * x[:, 1] + eps
    return x, y


def fit(x, y, epochs=30, lr=0.1):
    model = nn.Linear(2, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    loss_func = nn.MSELoss()
    for epoch in range(epochs):
        optimizer.zero_grad()
        yhat = model(x)
        loss_val = loss_func(yhat, y)  # expect: loss-shape-broadcast
        loss_val.backward()
        optimizer.step()
        if epoch % 10 == 0:
            print(epoch, loss_val.item())
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    features, target = make_data()
    fitted = fit(features, target)
    print(fitted.weight.data, fitted.bias.data)
