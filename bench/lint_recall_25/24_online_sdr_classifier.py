"""Online classifier on sparse binary codes (SDR-style): per-step softmax over class activations."""
import torch


class SDRClassifier:
    def __init__(self, input_width=2048, max_buckets=32, alpha=0.001):
        self.weights = torch.zeros(input_width, max_buckets)
        self.alpha = alpha
        self.max_buckets = max_buckets

    def infer(self, pattern_nz):
        output_activation = self.weights[pattern_nz].sum(dim=0)
        exp_output_activation = torch.exp(output_activation)  # expect: unshifted-softmax
        predict_dist = exp_output_activation / exp_output_activation.sum()
        return predict_dist

    def learn(self, pattern_nz, bucket_idx):
        predict_dist = self.infer(pattern_nz)
        target = torch.zeros(self.max_buckets)
        target[bucket_idx] = 1.0
        error = target - predict_dist
        self.weights[pattern_nz] += self.alpha * error
        return predict_dist

    def compute(self, record_num, pattern_nz, bucket_idx, learn=True):
        dist = self.learn(pattern_nz, bucket_idx) if learn else self.infer(pattern_nz)
        return {"record": record_num, "best": int(dist.argmax()), "confidence": float(dist.max())}


def encode(value, width=2048, active=40, n_buckets=32, v_min=0.0, v_max=100.0):
    bucket = int((min(max(value, v_min), v_max) - v_min) / (v_max - v_min) * (n_buckets - 1))
    start = bucket * (width - active) // (n_buckets - 1)
    return torch.arange(start, start + active), bucket


def run(stream_len=5000):
    clf = SDRClassifier()
    correct = 0
    values = 50 + 40 * torch.sin(torch.arange(stream_len, dtype=torch.float32) / 20.0)
    for t in range(stream_len - 1):
        pattern, _ = encode(float(values[t]))
        _, next_bucket = encode(float(values[t + 1]))
        out = clf.compute(t, pattern, next_bucket)
        correct += int(out["best"] == next_bucket)
        if t % 1000 == 0:
            print(t, out, f"running acc {correct / (t + 1):.3f}")


if __name__ == "__main__":
    run()
