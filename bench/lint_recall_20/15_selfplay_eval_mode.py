"""Evaluate a policy/value network against a fixed opponent for board-game RL."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class PolicyValueNet(nn.Module):
    def __init__(self, board=9, channels=64, blocks=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, channels, 3, padding=1), nn.BatchNorm2d(channels), nn.ReLU())
        self.blocks = nn.Sequential(*[
            nn.Sequential(nn.Conv2d(channels, channels, 3, padding=1), nn.BatchNorm2d(channels), nn.ReLU())
            for _ in range(blocks)
        ])
        self.policy = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(channels * board * board, board * board))
        self.value = nn.Sequential(nn.Flatten(), nn.Linear(channels * board * board, 1), nn.Tanh())

    def forward(self, x):
        h = self.blocks(self.stem(x))
        return self.policy(h), self.value(h)


def select_move(logits, legal_mask):
    logits = logits.masked_fill(~legal_mask, -1e9)
    return F.softmax(logits, dim=-1).argmax(dim=-1)


def play_games(model, opponent, env_factory, n_games, device):
    wins = 0
    with torch.no_grad():
        for game in range(n_games):
            env = env_factory(seed=game)
            state = env.reset()
            players = (model, opponent) if game % 2 == 0 else (opponent, model)
            turn = 0
            while not env.done():
                obs = torch.as_tensor(state, dtype=torch.float32, device=device).unsqueeze(0)
                legal = torch.as_tensor(env.legal_mask(), device=device).unsqueeze(0)
                logits, _ = players[turn % 2](obs)  # expect: validation-in-train-mode
                state = env.step(int(select_move(logits, legal)))
                turn += 1
            winner = env.winner()
            if (winner == 0 and game % 2 == 0) or (winner == 1 and game % 2 == 1):
                wins += 1
    return wins / n_games


def main(env_factory):
    p = argparse.ArgumentParser()
    p.add_argument("--checkpoint", required=True)
    p.add_argument("--baseline", required=True)
    p.add_argument("--games", type=int, default=200)
    args = p.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = PolicyValueNet().to(device)
    model.load_state_dict(torch.load(args.checkpoint, map_location=device, weights_only=True))
    opponent = PolicyValueNet().to(device)
    opponent.load_state_dict(torch.load(args.baseline, map_location=device, weights_only=True))
    print(f"win rate: {play_games(model, opponent, env_factory, args.games, device):.3f}")
