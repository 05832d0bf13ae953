# Source: https://github.com/mazzzystar/randomCNN-voice-transfer/issues/16
# Pitfall: The spectrogram being optimised is created with requires_grad=True and only then moved with .cuda(); the result is a non-leaf copy, so the optimizer refuses it ("can't optimize a non-leaf Tensor") or it never receives .grad.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def gram(features):
    b, c, t = features.shape
    flat = features.view(b, c, t)
    return flat @ flat.transpose(1, 2) / (c * t)


def transfer(cnn, content_spec, style_spec, steps=2000, style_weight=1.0):
    cnn = cnn.cuda().eval()
    content_spec = content_spec.cuda()
    style_spec = style_spec.cuda()
    with torch.no_grad():
        content_feat = cnn(content_spec)
        style_gram = gram(cnn(style_spec))
    result = torch.randn(content_spec.shape, requires_grad=True).cuda()  # expect: non-leaf-parameter
    optimizer = torch.optim.Adam([result], lr=0.002)
    for step in range(steps):
        optimizer.zero_grad()
        feat = cnn(result)
        loss = F.mse_loss(feat, content_feat) + style_weight * F.mse_loss(gram(feat), style_gram)
        loss.backward()
        optimizer.step()
    return result.detach().cpu()
