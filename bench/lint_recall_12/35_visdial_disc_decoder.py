"""Visual dialog: discriminative decoder that ranks 100 candidate answers per round."""
import torch
import torch.nn as nn


class DiscriminativeDecoder(nn.Module):
    def __init__(self, vocab_size, embed_size=300, hidden_size=512):
        super().__init__()
        self.word_embed = nn.Embedding(vocab_size, embed_size, padding_idx=0)
        self.option_rnn = nn.LSTM(embed_size, hidden_size, batch_first=True)
        self.log_softmax = nn.LogSoftmax(dim=0)  # expect: softmax-over-batch-dim

    def forward(self, enc_out, options):
        # enc_out: (batch * rounds, hidden); options: (batch * rounds, num_options, seq_len)
        n, num_options, seq_len = options.size()
        opts = options.view(n * num_options, seq_len)
        _, (h, _) = self.option_rnn(self.word_embed(opts))
        opt_embed = h[-1].view(n, num_options, -1)
        scores = torch.bmm(opt_embed, enc_out.unsqueeze(-1)).squeeze(-1)
        return self.log_softmax(scores)


def train_step(encoder, decoder, optimizer, batch):
    optimizer.zero_grad()
    enc_out = encoder(batch["img_feat"], batch["ques"], batch["hist"])
    log_probs = decoder(enc_out, batch["opt"])
    target = batch["ans_ind"].view(-1)
    loss = nn.functional.nll_loss(log_probs, target)
    loss.backward()
    optimizer.step()
    return loss.item()
