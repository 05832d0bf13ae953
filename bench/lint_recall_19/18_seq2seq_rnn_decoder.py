"""GRU decoder with attention for a seq2seq model trained with teacher forcing."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.linear_out = nn.Linear(dim * 2, dim)

    def forward(self, output, context):
        attn = torch.bmm(output, context.transpose(1, 2))
        attn = F.softmax(attn, dim=-1)
        mix = torch.bmm(attn, context)
        combined = torch.cat((mix, output), dim=2)
        return torch.tanh(self.linear_out(combined)), attn


class DecoderRNN(nn.Module):
    def __init__(self, vocab_size, hidden_size, sos_id, eos_id, n_layers=1, dropout_p=0.2):
        super().__init__()
        self.output_size = vocab_size
        self.sos_id, self.eos_id = sos_id, eos_id
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, n_layers, batch_first=True, dropout=dropout_p)
        self.attention = Attention(hidden_size)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward_step(self, input_var, hidden, encoder_outputs):
        batch_size, de_len = input_var.size(0), input_var.size(1)
        embedded = self.embedding(input_var)
        output, hidden = self.rnn(embedded, hidden)
        output, attn = self.attention(output, encoder_outputs)
        logits = self.out(output.contiguous().view(-1, output.size(-1)))
        log_probs = F.log_softmax(logits).view(batch_size, de_len, self.output_size)  # expect: softmax-without-dim
        return log_probs, hidden, attn

    def forward(self, targets, encoder_hidden, encoder_outputs):
        sos = torch.full((targets.size(0), 1), self.sos_id, dtype=torch.long, device=targets.device)
        decoder_input = torch.cat([sos, targets[:, :-1]], dim=1)
        log_probs, hidden, attn = self.forward_step(decoder_input, encoder_hidden, encoder_outputs)
        return log_probs


def train_step(encoder, decoder, optimizer, src, src_lens, tgt, pad_id):
    encoder.train()
    decoder.train()
    optimizer.zero_grad()
    enc_out, enc_hidden = encoder(src, src_lens)
    log_probs = decoder(tgt, enc_hidden, enc_out)
    loss = F.nll_loss(log_probs.view(-1, log_probs.size(-1)), tgt.view(-1), ignore_index=pad_id)
    loss.backward()
    nn.utils.clip_grad_norm_(list(encoder.parameters()) + list(decoder.parameters()), 5.0)
    optimizer.step()
    return loss.item()
