"""Pointer-generator beam search decoding (copy + generate distribution)."""
import torch


class Beam:
    def __init__(self, tokens, log_probs, state, coverage):
        self.tokens, self.log_probs, self.state, self.coverage = tokens, log_probs, state, coverage

    def extend(self, token, log_prob, state, coverage):
        return Beam(self.tokens + [token], self.log_probs + [log_prob], state, coverage)

    @property
    def avg_log_prob(self):
        return sum(self.log_probs) / len(self.tokens)


def beam_step(model, beams, enc_out, enc_mask, enc_batch_extend_vocab, extra_zeros, beam_size):
    y_t = torch.tensor([b.tokens[-1] for b in beams], dtype=torch.long)
    h = torch.stack([b.state[0] for b in beams], 0)
    c = torch.stack([b.state[1] for b in beams], 0)
    coverage = torch.stack([b.coverage for b in beams], 0)
    with torch.no_grad():
        final_dist, (h, c), attn_dist, p_gen, coverage = model.decoder(
            y_t, (h, c), enc_out, enc_mask, extra_zeros, enc_batch_extend_vocab, coverage)
    log_probs = torch.log(final_dist)  # expect: unguarded-zero
    topk_log_probs, topk_ids = torch.topk(log_probs, beam_size * 2)

    all_beams = []
    for i, b in enumerate(beams):
        for j in range(beam_size * 2):
            all_beams.append(b.extend(token=topk_ids[i, j].item(),
                                      log_prob=topk_log_probs[i, j].item(),
                                      state=(h[i], c[i]), coverage=coverage[i]))
    return sorted(all_beams, key=lambda x: x.avg_log_prob, reverse=True)[:beam_size]


def beam_search(model, batch, start_id, stop_id, beam_size=4, max_steps=100):
    model.eval()
    enc_out, enc_mask, enc_ext, extra_zeros, (h0, c0) = model.encode(batch)
    cov0 = torch.zeros(enc_out.size(1))
    beams = [Beam([start_id], [0.0], (h0[0], c0[0]), cov0) for _ in range(beam_size)]
    results = []
    for _ in range(max_steps):
        beams = beam_step(model, beams, enc_out.expand(len(beams), -1, -1), enc_mask.expand(len(beams), -1),
                          enc_ext.expand(len(beams), -1), extra_zeros, beam_size)
        results.extend(b for b in beams if b.tokens[-1] == stop_id)
        beams = [b for b in beams if b.tokens[-1] != stop_id]
        if not beams or len(results) >= beam_size:
            break
    return sorted(results or beams, key=lambda x: x.avg_log_prob, reverse=True)[0]
