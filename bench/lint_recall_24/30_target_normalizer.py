"""Target normalizer for a forecasting model: optional log transform plus centering."""
import torch


class TorchNormalizer:
    def __init__(self, log_scale=False, log_zero_value=0.0, eps=1e-8):
        self.log_scale = log_scale
        self.log_zero_value = log_zero_value
        self.eps = eps

    def preprocess(self, y):
        if self.log_scale:
            y = torch.log(y + self.log_zero_value)  # expect: unguarded-zero
        return y

    def fit(self, y):
        y = self.preprocess(y)
        self.center_ = torch.mean(y, dim=-1)
        self.scale_ = torch.std(y, dim=-1) / (self.center_.abs() + self.eps)
        return self

    def transform(self, y):
        y = self.preprocess(y)
        return (y - self.center_.unsqueeze(-1)) / (self.scale_.unsqueeze(-1) + self.eps)

    def inverse_transform(self, y):
        y = y * (self.scale_.unsqueeze(-1) + self.eps) + self.center_.unsqueeze(-1)
        if self.log_scale:
            y = torch.exp(y) - self.log_zero_value
        return y


if __name__ == "__main__":
    sales = torch.tensor([[0.0, 3.0, 5.0, 0.0, 8.0]])
    norm = TorchNormalizer(log_scale=True).fit(sales)
    print(norm.transform(sales))
