"""Beam-search decoding of captions from a GPT-2 prefix decoder (image embedding -> text)."""
import numpy as np
import torch
import torch.nn as nn


class PrefixTextDecoder(nn.Module):
    def __init__(self, transformer, prefix_dim, hidden_dim):
        super().__init__()
        self.transformer = transformer
        self.encode_prefix = nn.Linear(prefix_dim, hidden_dim)
        self.decode_prefix = nn.Linear(hidden_dim, prefix_dim)

    @torch.no_grad()
    def generate_beam(self, input_embeds, device, beam_size=5, entry_length=67,
                      temperature=1.0, eos_token_id=50256):
        self.eval()
        tokens, scores = None, None
        seq_lengths = torch.ones(beam_size, device=device)
        is_stopped = torch.zeros(beam_size, device=device, dtype=torch.bool)
        generated = input_embeds
        for _ in range(entry_length):
            logits = self.transformer(inputs_embeds=generated).logits
            logits = logits[:, -1, :] / (temperature if temperature > 0 else 1.0)
            logits = logits.softmax(-1).log()  # expect: log-of-softmax
            if scores is None:
                scores, next_tokens = logits.topk(beam_size, -1)
                generated = generated.expand(beam_size, *generated.shape[1:])
                next_tokens, scores = next_tokens.permute(1, 0), scores.squeeze(0)
                tokens = next_tokens
            else:
                logits[is_stopped] = -float(np.inf)
                logits[is_stopped, 0] = 0
                scores_sum = scores[:, None] + logits
                seq_lengths[~is_stopped] += 1
                average = scores_sum / seq_lengths[:, None].clamp(min=1)
                average, next_tokens = average.view(-1).topk(beam_size, -1)
                source = next_tokens // scores_sum.shape[1]
                seq_lengths = seq_lengths[source]
                next_tokens = (next_tokens % scores_sum.shape[1]).unsqueeze(1)
                tokens = torch.cat((tokens[source], next_tokens), dim=1)
                generated = generated[source]
                scores = average * seq_lengths
                is_stopped = is_stopped[source]
            next_embed = self.transformer.transformer.wte(next_tokens.squeeze()).view(generated.shape[0], 1, -1)
            generated = torch.cat((generated, next_embed), dim=1)
            is_stopped = is_stopped + next_tokens.eq(eos_token_id).squeeze()
            if is_stopped.all():
                break
        scores = scores / seq_lengths.clamp(min=1)
        order = scores.argsort(descending=True)
        return [tokens[i] for i in order], seq_lengths[order]
