import torch
import torch.nn as nn
import torch.nn.functional as F


class LateFusionEncoder(nn.Module):
    def __init__(self, img_feature_size=2048, embed_size=300, hidden_size=512, vocab_size=11000):
        super().__init__()
        self.word_embed = nn.Embedding(vocab_size, embed_size, padding_idx=0)
        self.ques_rnn = nn.LSTM(embed_size, hidden_size, batch_first=True)
        self.hist_rnn = nn.LSTM(embed_size, hidden_size, batch_first=True)
        self.image_features_projection = nn.Linear(img_feature_size, hidden_size)
        self.fusion = nn.Linear(2 * hidden_size + img_feature_size, hidden_size)
        self.dropout = nn.Dropout(0.5)

    def forward(self, img, ques, hist):
        batch_size, num_rounds, _ = ques.size()
        _, (qh, _) = self.ques_rnn(self.word_embed(ques.view(batch_size * num_rounds, -1)))
        ques_embed = qh[-1]
        _, (hh, _) = self.hist_rnn(self.word_embed(hist.view(batch_size * num_rounds, -1)))
        hist_embed = hh[-1]
        num_proposals = img.size(1)
        img = img.unsqueeze(1).repeat(1, num_rounds, 1, 1).view(batch_size * num_rounds, num_proposals, -1)
        projected = self.image_features_projection(img)
        # shape: (batch_size * num_rounds, num_proposals, 1)
        image_attention_weights = projected.bmm(ques_embed.unsqueeze(-1))
        image_attention_weights = F.softmax(image_attention_weights)  # expect: softmax-without-dim
        attended_img = (image_attention_weights * img).sum(dim=1)
        fused = torch.cat((attended_img, ques_embed, hist_embed), dim=1)
        return torch.tanh(self.fusion(self.dropout(fused)))
