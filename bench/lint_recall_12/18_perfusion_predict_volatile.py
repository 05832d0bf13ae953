import numpy as np
import torch
from torch.autograd import Variable


class FeedForwardSegmentation:
    def __init__(self, net, criterion, lr=1e-4, use_cuda=True):
        self.net = net.cuda() if use_cuda else net
        self.criterion = criterion
        self.use_cuda = use_cuda
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)

    def set_input(self, image, target=None):
        self.input = image.cuda() if self.use_cuda else image
        self.target = None if target is None else (target.cuda() if self.use_cuda else target)

    def optimize_parameters(self):
        self.net.train()
        self.optimizer.zero_grad()
        self.prediction = self.net(self.input)
        self.loss = self.criterion(self.prediction, self.target)
        self.loss.backward()
        self.optimizer.step()
        return self.loss.item()

    def validate(self):
        self.net.eval()
        inp = Variable(self.input, volatile=True)  # expect: volatile-variable
        self.prediction = self.net(inp)
        self.loss = self.criterion(self.prediction, self.target)
        self.pred_seg = self.prediction.argmax(dim=1)
        self.net.train()
        return self.loss.item()

    def dice(self):
        pred = self.pred_seg.cpu().numpy().astype(bool)
        tgt = self.target.cpu().numpy().astype(bool)
        inter = np.logical_and(pred, tgt).sum()
        return 2.0 * inter / max(pred.sum() + tgt.sum(), 1)
