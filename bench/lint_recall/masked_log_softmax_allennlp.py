# Source: https://github.com/allenai/allennlp/issues/890
# Pitfall: a masked log-softmax adds log(mask) to the logits; a row whose mask is all zeros
# becomes all -inf and log_softmax gives NaN for the whole row.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def masked_log_softmax(vector, mask, dim=-1):
    if mask is not None:
        vector = vector + mask.float().log()  # expect: fully-masked-softmax
    return F.log_softmax(vector, dim=dim)
