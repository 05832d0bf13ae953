"""Multinomial logistic regression on MNIST with hand-managed weight tensors on the GPU."""
import torch
import torch.nn.functional as F
from torchvision import datasets, transforms

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

W = torch.randn(784, 10, requires_grad=True).to(device)  # expect: non-leaf-parameter
b = torch.zeros(10, requires_grad=True, device=device)


def model(x):
    return x.view(x.size(0), -1) @ W + b


def train(epochs=5, lr=0.1, batch_size=128):
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    train_set = datasets.MNIST("./data", train=True, download=True, transform=tf)
    loader = torch.utils.data.DataLoader(train_set, batch_size=batch_size, shuffle=True, num_workers=2)
    optimizer = torch.optim.SGD([W, b], lr=lr)
    for epoch in range(epochs):
        total = 0.0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: {total / len(loader):.4f}")


@torch.no_grad()
def evaluate(batch_size=1000):
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    test_set = datasets.MNIST("./data", train=False, transform=tf)
    loader = torch.utils.data.DataLoader(test_set, batch_size=batch_size, num_workers=2)
    correct = 0
    for x, y in loader:
        correct += (model(x.to(device)).argmax(dim=1).cpu() == y).sum().item()
    return correct / len(test_set)


if __name__ == "__main__":
    train()
    print("test accuracy", evaluate())
