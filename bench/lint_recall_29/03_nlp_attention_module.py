"""General attention module used by a seq2seq decoder (Luong-style)."""
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dimensions, attention_type="general"):
        super().__init__()
        self.attention_type = attention_type
        if attention_type == "general":
            self.linear_in = nn.Linear(dimensions, dimensions, bias=False)
        self.linear_out = nn.Linear(dimensions * 2, dimensions, bias=False)
        self.softmax = nn.Softmax()  # expect: softmax-without-dim
        self.tanh = nn.Tanh()

    def forward(self, query, context):
        # query: (batch, out_len, dim); context: (batch, in_len, dim)
        batch_size, output_len, dims = query.size()
        query_len = context.size(1)

        if self.attention_type == "general":
            query = self.linear_in(query.reshape(batch_size * output_len, dims))
            query = query.reshape(batch_size, output_len, dims)

        scores = torch.bmm(query, context.transpose(1, 2).contiguous())
        scores = scores.view(batch_size * output_len, query_len)
        weights = self.softmax(scores)
        weights = weights.view(batch_size, output_len, query_len)

        mix = torch.bmm(weights, context)
        combined = torch.cat((mix, query), dim=2).view(batch_size * output_len, 2 * dims)
        output = self.tanh(self.linear_out(combined)).view(batch_size, output_len, dims)
        return output, weights


class AttnDecoderStep(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.attn = Attention(dim)
        self.proj = nn.Linear(dim, vocab)

    def forward(self, tokens, state, encoder_out):
        out, state = self.rnn(self.emb(tokens), state)
        out, weights = self.attn(out, encoder_out)
        return self.proj(out), state, weights
