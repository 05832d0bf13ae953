"""Time forward passes of torchvision models (inference benchmark, PyTorch backend)."""
import time

import torch
import torchvision.models as models
from torch.autograd import Variable


class PyTorchBench:
    def __init__(self, model_name, image_shape=(224, 224)):
        self.model = getattr(models, model_name)().cuda()
        self.model.eval()
        self.image_shape = image_shape

    def make_batch(self, batch_size):
        x = torch.randn(batch_size, 3, *self.image_shape).cuda()
        return Variable(x, volatile=True)  # expect: volatile-variable

    def benchmark_inference(self, batch_size=16, num_iterations=20, warmup=5):
        x = self.make_batch(batch_size)
        for _ in range(warmup):
            self.model(x)
        torch.cuda.synchronize()
        durations = []
        for _ in range(num_iterations):
            t1 = time.time()
            self.model(x)
            torch.cuda.synchronize()
            durations.append(time.time() - t1)
        return sum(durations) / len(durations)


if __name__ == "__main__":
    for name in ["resnet152", "densenet161", "vgg16"]:
        avg = PyTorchBench(name).benchmark_inference()
        print(f"{name}: {avg * 1000:.1f} ms/batch")
