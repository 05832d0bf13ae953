"""Average the weights of the N best checkpoints of a run into one file."""
import argparse
import glob
import os

import torch

parser = argparse.ArgumentParser(description="Checkpoint averager")
parser.add_argument("--input", default="", type=str, help="folder with checkpoints")
parser.add_argument("--filter", default="*.pth.tar", type=str)
parser.add_argument("--output", default="./averaged.pth", type=str)
parser.add_argument("--no-use-ema", dest="no_use_ema", action="store_true")
parser.add_argument("-n", type=int, default=10, metavar="N", help="number of checkpoints to average")


def checkpoint_metric(checkpoint_path):
    if not checkpoint_path or not os.path.isfile(checkpoint_path):
        return None
    checkpoint = torch.load(checkpoint_path, map_location="cpu", weights_only=False)  # expect: torch-load-unsafe
    return checkpoint.get("metric") if isinstance(checkpoint, dict) else None


def load_weights(path, use_ema):
    data = torch.load(path, map_location="cpu", weights_only=True)
    key = "state_dict_ema" if use_ema and "state_dict_ema" in data else "state_dict"
    return data.get(key, data)


def main():
    args = parser.parse_args()
    pattern = os.path.join(args.input, args.filter)
    scored = [(checkpoint_metric(c), c) for c in glob.glob(pattern, recursive=True)]
    scored = sorted((s for s in scored if s[0] is not None), reverse=True)[: args.n]
    if not scored:
        raise SystemExit("no checkpoints with a metric found")

    avg_state, avg_counts = {}, {}
    for _, path in scored:
        for k, v in load_weights(path, not args.no_use_ema).items():
            if k not in avg_state:
                avg_state[k] = v.clone().to(dtype=torch.float64)
                avg_counts[k] = 1
            else:
                avg_state[k] += v.to(dtype=torch.float64)
                avg_counts[k] += 1
    final = {k: (v / avg_counts[k]).float() for k, v in avg_state.items()}
    torch.save(final, args.output)
    print(f"averaged {len(scored)} checkpoints into {args.output}")


if __name__ == "__main__":
    main()
