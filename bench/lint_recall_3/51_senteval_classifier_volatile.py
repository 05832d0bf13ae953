# Source: https://github.com/facebookresearch/SentEval/pull/42
# Pitfall: The probing classifier's scoring loop marks the dev batch Variable(..., volatile=True);
# on PyTorch 0.4 that option does nothing, and the evaluation forward records a graph.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
from torch.autograd import Variable


class ProbeClassifier:
    def __init__(self, model, batch_size=64, device="cuda"):
        self.model = model.to(device)
        self.batch_size = batch_size
        self.device = device

    def score(self, dev_x, dev_y):
        self.model.eval()
        correct = 0
        for i in range(0, len(dev_x), self.batch_size):
            xbatch = Variable(torch.from_numpy(dev_x[i:i + self.batch_size]).to(self.device), volatile=True)  # expect: volatile-variable
            ybatch = torch.from_numpy(dev_y[i:i + self.batch_size]).to(self.device)
            output = self.model(xbatch)
            pred = output.argmax(1)
            correct += pred.long().eq(ybatch.long()).sum().item()
        return correct / float(len(dev_x))


def evaluate_probe(model, dev_x: np.ndarray, dev_y: np.ndarray):
    return ProbeClassifier(model).score(dev_x, dev_y)
