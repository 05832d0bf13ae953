# Source: https://github.com/Linardos/SalEMA/issues/6
# Pitfall: the recurrent saliency model calls the functional dropout2d behind a constructor flag instead of
#   tying it to the module's mode, so eval() leaves feature maps randomly zeroed at inference time.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.nn.functional import dropout2d


class SaliencyDecoder(nn.Module):
    def __init__(self, channels=64, use_dropout=True):
        super().__init__()
        self.use_dropout = use_dropout
        self.conv_a = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv_b = nn.Conv2d(channels, 1, 1)
        self.ema_alpha = nn.Parameter(torch.tensor(0.1))

    def forward(self, frames, state=None):
        outputs = []
        for t in range(frames.size(1)):
            x = torch.relu(self.conv_a(frames[:, t]))
            if self.use_dropout:
                x = dropout2d(x, p=0.3)  # expect: functional-dropout-always-on
            state = x if state is None else self.ema_alpha * x + (1 - self.ema_alpha) * state
            outputs.append(torch.sigmoid(self.conv_b(state)))
        return torch.stack(outputs, dim=1)


def predict_clip(decoder, clip):
    decoder.eval()
    with torch.no_grad():
        maps = decoder(clip)
    decoder.train()
    return maps
