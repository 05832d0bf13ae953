"""Variational KISS-GP regression on a 1-D toy problem with a step-decay learning rate."""
import math

import torch
import gpytorch
from torch.utils.data import DataLoader, TensorDataset


class GPRegressionModel(gpytorch.models.ApproximateGP):
    def __init__(self, grid_size=32, grid_bounds=((-0.05, 1.05),)):
        variational_distribution = gpytorch.variational.CholeskyVariationalDistribution(grid_size)
        variational_strategy = gpytorch.variational.GridInterpolationVariationalStrategy(
            self, grid_size=grid_size, grid_bounds=grid_bounds,
            variational_distribution=variational_distribution,
        )
        super().__init__(variational_strategy)
        self.mean_module = gpytorch.means.ConstantMean()
        self.covar_module = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel())

    def forward(self, x):
        mean_x = self.mean_module(x)
        covar_x = self.covar_module(x)
        return gpytorch.distributions.MultivariateNormal(mean_x, covar_x)


def make_data(n=1000):
    train_x = torch.linspace(0, 1, n)
    train_y = torch.sin(train_x * (4 * math.pi)) + 0.1 * torch.randn(n)
    return train_x, train_y


def fit(n_epochs=20):
    train_x, train_y = make_data()
    train_loader = DataLoader(TensorDataset(train_x, train_y), batch_size=256, shuffle=True)
    model = GPRegressionModel()
    likelihood = gpytorch.likelihoods.GaussianLikelihood()
    mll = gpytorch.mlls.VariationalELBO(likelihood, model, num_data=train_y.size(0))
    optimizer = torch.optim.SGD(
        [{"params": model.parameters()}, {"params": likelihood.parameters()}], lr=0.1, momentum=0.9
    )
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[int(0.75 * n_epochs)], gamma=0.1)
    model.train()
    likelihood.train()
    for epoch in range(n_epochs):
        scheduler.step()  # expect: scheduler-before-optimizer
        epoch_loss = 0.0
        for x_batch, y_batch in train_loader:
            optimizer.zero_grad()
            output = model(x_batch.float())
            loss = -mll(output, y_batch.float())
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(f"epoch {epoch}: -elbo {epoch_loss / len(train_loader):.3f}")
    return model, likelihood


if __name__ == "__main__":
    fit()
