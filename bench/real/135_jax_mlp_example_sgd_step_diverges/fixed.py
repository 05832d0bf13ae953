"""JAX-docs-style MNIST MLP -- fixed as the PR did: a smaller SGD step size (0.05 instead of 1.0;
nothing else changed).

Source: https://github.com/jax-ml/jax/pull/159 (Lower learning rate in NN example notebook to fix divergence.)
Report / fix: the neural-network example notebook diverged with its learning rate; the merged PR
lowers the learning rate of the example so the loss converges. Reproduced with the notebook's
structure in torch (`init_network_params` drawing each (W, b) as scale * randn with scale 0.1
here, `predict` = ReLU layers then logits - logsumexp, `loss` = -mean(sum(preds * one_hot)),
`update` = params - step_size * grads computed by autograd, batches of 128 for a few epochs) on
6,000 synthetic 28 x 28 "digits" in [0, 1] (ten smooth stroke templates, shifted, scaled in
contrast, noised); the step size is 1.0 here (the fix uses 0.05). The printed loss is the mean
training loss of the last epoch, `acc` the held-out accuracy.

expect: lr-too-high
symptom: loss-above 1.0
batch: 7
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

layer_sizes = [784, 512, 512, 10]
step_size = 0.05
num_epochs = 4
batch_size = 128


def make_digits(n, templates):
    y = torch.randint(0, 10, (n,))
    img = templates[y]
    shifts = torch.randint(-2, 3, (n, 2))
    img = torch.stack([torch.roll(im, (int(a), int(b)), (0, 1)) for im, (a, b) in zip(img, shifts)])
    img = img * (0.6 + 0.4 * torch.rand(n, 1, 1)) + 0.35 * torch.rand(n, 28, 28)
    return img.clamp(0, 1).view(n, 784), y


def init_network_params(sizes, scale=0.1):
    return [(scale * torch.randn(n, m), scale * torch.randn(n)) for m, n in zip(sizes[:-1], sizes[1:])]


def predict(params, images):
    activations = images
    for w, b in params[:-1]:
        activations = F.relu(activations @ w.t() + b)
    final_w, final_b = params[-1]
    logits = activations @ final_w.t() + final_b
    return logits - torch.logsumexp(logits, dim=1, keepdim=True)


def loss(params, images, targets):
    return -torch.mean(torch.sum(predict(params, images) * targets, dim=1))


def update(params, x, y):
    flat = [t.requires_grad_() for wb in params for t in wb]
    value = loss(params, x, y)
    grads = torch.autograd.grad(value, flat)
    new = [(t - step_size * g).detach() for t, g in zip(flat, grads)]
    return [(new[i], new[i + 1]) for i in range(0, len(new), 2)], value.item()


gen = torch.Generator().manual_seed(1234)
strokes = torch.rand(10, 1, 7, 7, generator=gen)
templates = ((F.interpolate(strokes, size=(28, 28), mode="bilinear", align_corners=False).squeeze(1) - 0.5) * 3).clamp(0, 1)
train_images, train_labels = make_digits(6000, templates)
test_images, test_labels = make_digits(2000, templates)

params = init_network_params(layer_sizes)
for epoch in range(num_epochs):
    perm = torch.randperm(len(train_images))
    epoch_losses = []
    for k in range(0, len(perm), batch_size):
        idx = perm[k:k + batch_size]
        params, value = update(params, train_images[idx], F.one_hot(train_labels[idx], 10).float())
        epoch_losses.append(value)
    with torch.no_grad():
        acc = (predict(params, test_images).argmax(1) == test_labels).float().mean().item()
    print(f"epoch {epoch} loss {sum(epoch_losses) / len(epoch_losses):.4f} test_acc {acc:.4f}")
print(f"final_loss={sum(epoch_losses) / len(epoch_losses):.6g} acc={acc:.4f}")
