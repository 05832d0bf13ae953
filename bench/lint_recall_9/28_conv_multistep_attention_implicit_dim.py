# Source: https://github.com/OpenNMT/OpenNMT-py/commit/ec2250c3c90c4b03a1aaa718ceb0a857d32d58cc
# Pitfall: the convolutional seq2seq attention calls F.softmax on a 3-D score tensor without dim; the implicit
#   choice for 3-D input is dim 0, so weights are normalised across the batch instead of over source positions.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F

SCALE_WEIGHT = 0.5 ** 0.5


class MultiStepAttention(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.linear_in = nn.Linear(channels, channels)

    def forward(self, base_target_emb, input_from_dec, encoder_out_top, encoder_out_combine):
        # input_from_dec: batch x channels x tgt_len x 1
        batch, channels, height, _ = input_from_dec.size()
        preatt = self.linear_in(input_from_dec.squeeze(3).transpose(1, 2))
        target = (base_target_emb + preatt) * SCALE_WEIGHT
        pre_attn = torch.bmm(target, encoder_out_top)  # batch x tgt_len x src_len
        pre_attn = pre_attn.transpose(0, 2)
        attn = F.softmax(pre_attn)  # expect: softmax-without-dim
        attn = attn.transpose(0, 2).contiguous()
        context = torch.bmm(attn, encoder_out_combine.transpose(1, 2))
        return context.transpose(1, 2).unsqueeze(3), attn


class ConvDecoderLayer(nn.Module):
    def __init__(self, channels, width=3, dropout=0.2):
        super().__init__()
        self.conv = nn.Conv2d(channels, 2 * channels, kernel_size=(width, 1), padding=(width - 1, 0))
        self.attn = MultiStepAttention(channels)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, tgt_emb, enc_top, enc_comb):
        h = self.conv(self.dropout(x))[:, :, : x.size(2), :]
        out, gate = h.split(x.size(1), dim=1)
        h = out * torch.sigmoid(gate)
        c, attn = self.attn(tgt_emb, h, enc_top, enc_comb)
        return (h + c) * SCALE_WEIGHT, attn


def train_step(layer, head, optimizer, batch):
    x, tgt_emb, enc_top, enc_comb, labels = batch
    layer.train()
    out, _ = layer(x, tgt_emb, enc_top, enc_comb)
    logits = head(out.squeeze(3).transpose(1, 2))
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
