# Source: https://github.com/vinhkhuc/PyTorch-Mini-Tutorials/issues/1
# Pitfall: the Sequential model registers a Softmax module as its last layer and is trained with
#   torch.nn.CrossEntropyLoss, which already contains log_softmax; the loss sees probabilities, not logits.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
from torch import optim


def build_model(input_dim, output_dim, hidden=512):
    model = torch.nn.Sequential()
    model.add_module("linear_1", torch.nn.Linear(input_dim, hidden, bias=False))
    model.add_module("relu_1", torch.nn.ReLU())
    model.add_module("dropout_1", torch.nn.Dropout(0.2))
    model.add_module("linear_2", torch.nn.Linear(hidden, output_dim, bias=False))
    model.add_module("softmax", torch.nn.Softmax(dim=1))  # expect: softmax-before-cross-entropy
    return model


def train(model, loss, optimizer, x_val, y_val):
    model.train()
    optimizer.zero_grad()
    fx = model.forward(x_val)
    output = loss.forward(fx, y_val)
    output.backward()
    optimizer.step()
    return output.item()


def predict(model, x_val):
    model.eval()
    with torch.no_grad():
        return model.forward(x_val).argmax(dim=1).numpy()


def main(trX, trY, teX, teY, epochs=100, batch_size=100):
    torch.manual_seed(42)
    trX, teX = torch.from_numpy(trX).float(), torch.from_numpy(teX).float()
    trY = torch.from_numpy(trY).long()
    model = build_model(trX.size(1), 10)
    loss = torch.nn.CrossEntropyLoss(reduction="mean")
    optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for i in range(epochs):
        cost = 0.0
        perm = torch.randperm(trX.size(0))
        for k in range(0, trX.size(0), batch_size):
            idx = perm[k:k + batch_size]
            cost += train(model, loss, optimizer, trX[idx], trY[idx])
        print("Epoch %d, cost = %f, acc = %.2f%%" % (i + 1, cost, 100.0 * np.mean(predict(model, teX) == teY)))
