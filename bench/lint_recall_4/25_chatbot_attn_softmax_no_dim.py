# Source: https://github.com/lucasjinreal/pytorch_chatbot/issues/4
# Pitfall: the attention decoder calls F.softmax for the attention weights and F.log_softmax for
#   the word scores without dim, both hitting the deprecated implicit-dimension path.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_LENGTH = 20


class AttnDecoder(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.1, max_length=MAX_LENGTH):
        super().__init__()
        self.embedding = nn.Embedding(output_size, hidden_size)
        self.attn = nn.Linear(hidden_size * 2, max_length)
        self.attn_combine = nn.Linear(hidden_size * 2, hidden_size)
        self.dropout = nn.Dropout(dropout_p)
        self.gru = nn.GRU(hidden_size, hidden_size)
        self.out = nn.Linear(hidden_size, output_size)

    def forward(self, token, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(token).view(1, 1, -1))
        attn_weights = F.softmax(self.attn(torch.cat((embedded[0], hidden[0]), 1)))  # expect: softmax-without-dim
        attn_applied = torch.bmm(attn_weights.unsqueeze(0), encoder_outputs.unsqueeze(0))
        output = torch.cat((embedded[0], attn_applied[0]), 1)
        output = F.relu(self.attn_combine(output).unsqueeze(0))
        output, hidden = self.gru(output, hidden)
        output = F.log_softmax(self.out(output[0]))  # expect: softmax-without-dim
        return output, hidden, attn_weights


def train_pair(input_tensor, target_tensor, encoder, decoder, enc_opt, dec_opt, criterion, sos_token=0):
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    hidden = torch.zeros(1, 1, encoder.hidden_size)
    encoder_outputs = torch.zeros(MAX_LENGTH, encoder.hidden_size)
    for ei in range(input_tensor.size(0)):
        enc_out, hidden = encoder(input_tensor[ei], hidden)
        encoder_outputs[ei] = enc_out[0, 0]
    dec_input = torch.tensor([[sos_token]])
    loss = 0
    for di in range(target_tensor.size(0)):
        dec_out, hidden, _ = decoder(dec_input, hidden, encoder_outputs)
        loss = loss + criterion(dec_out, target_tensor[di])
        dec_input = target_tensor[di]
    loss.backward()
    enc_opt.step()
    dec_opt.step()
    return loss.item() / target_tensor.size(0)
