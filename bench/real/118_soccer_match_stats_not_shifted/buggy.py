"""Football result predictor whose per-match features are that match's own statistics (shots, shots on target, possession, corners, half-time goals) instead of the teams' form before kick-off: the result can be read off the inputs and the training loss falls far below what the task allows.

Source: https://github.com/tunghoangt/Soccer-prediction-with-Machine-Learning/issues/1 (data leakage)
Report: "I found your feature didn't shift. It will introduce data leakage. For example,
Possession_home you didn't know before game. It reduce your high accuracy." -- the statistics
must be shifted so that each match only sees what was known before it (the teams' previous
games). Reproduced with the project's recipe (a match table with home/away shots, shots on
target, possession, corners and half-time goals per game; features: each team's latest stats and
its rolling average over the last 5 games, standardised, a small neural classifier of home win /
draw / away win with Adam) on five synthetic 20-team league seasons generated from hidden team
strengths; the last season is the test set; the printed loss is the final training
cross-entropy, `acc` the test accuracy.

expect: target-leakage
symptom: loss-below 0.65
batch: 6
"""
import argparse
from collections import defaultdict, deque

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_TEAMS, SEASONS, WINDOW = 20, 5, 5
STATS = ["shots", "shots_on_target", "possession", "corners", "halftime_goals"]


def play_seasons():
    strength = 0.4 * torch.randn(N_TEAMS)
    matches = []
    for season in range(SEASONS):
        strength = 0.8 * strength + 0.25 * torch.randn(N_TEAMS)
        pairs = [(h, a) for h in range(N_TEAMS) for a in range(N_TEAMS) if h != a]
        for k in torch.randperm(len(pairs)).tolist():
            h, a = pairs[k]
            d = float(strength[h] - strength[a]) + 0.25 + 0.3 * float(torch.randn(1))
            sot = [int(torch.poisson(torch.tensor(4.0 * 2.7 ** (s * d / 2)))) for s in (1, -1)]
            shots = [x + int(torch.poisson(torch.tensor(7.0))) for x in sot]
            poss = 50 + 12 * torch.tanh(torch.tensor(d)).item() + 4 * float(torch.randn(1))
            corners = [int(torch.poisson(torch.tensor(5.0 * 1.5 ** (s * d)))) for s in (1, -1)]
            goals = [int(torch.distributions.Binomial(x, torch.tensor(0.3)).sample()) for x in sot]
            ht = [int(torch.distributions.Binomial(g, torch.tensor(0.5)).sample()) for g in goals]
            result = 0 if goals[0] > goals[1] else (1 if goals[0] == goals[1] else 2)
            matches.append({"season": season, "home": h, "away": a, "result": result,
                            "home_shots": shots[0], "away_shots": shots[1],
                            "home_shots_on_target": sot[0], "away_shots_on_target": sot[1],
                            "home_possession": poss, "away_possession": 100 - poss,
                            "home_corners": corners[0], "away_corners": corners[1],
                            "home_halftime_goals": ht[0], "away_halftime_goals": ht[1]})
    return matches


def match_stats(m, side):
    return [m[f"{side}_{s}"] for s in STATS]


def build_features(matches):
    history = defaultdict(lambda: deque(maxlen=WINDOW))      # team -> its recent games' stats
    rows, labels, seasons = [], [], []
    for m in matches:
        history[m["home"]].append(match_stats(m, "home"))
        history[m["away"]].append(match_stats(m, "away"))
        home, away = torch.tensor(list(history[m["home"]])).float(), torch.tensor(list(history[m["away"]])).float()
        # latest game's stats and the rolling average over the window, for both teams
        rows.append(torch.cat([home[-1], away[-1], home.mean(0), away.mean(0)]))
        labels.append(m["result"])
        seasons.append(m["season"])
    return torch.stack(rows), torch.tensor(labels), torch.tensor(seasons)


X, y, season = build_features(play_seasons())
train, test = season < SEASONS - 1, season == SEASONS - 1
mu, sd = X[train].mean(0), X[train].std(0)
X = (X - mu) / sd

model = nn.Sequential(nn.Linear(X.size(1), 32), nn.ReLU(), nn.Linear(32, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
Xtr, ytr = X[train], y[train]
for epoch in range(60):
    perm = torch.randperm(len(ytr))
    for i in range(0, len(ytr), 64):
        idx = perm[i:i + 64]
        loss = F.cross_entropy(model(Xtr[idx]), ytr[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % 10 == 9:
        with torch.no_grad():
            train_loss = F.cross_entropy(model(Xtr), ytr).item()
            acc = (model(X[test]).argmax(1) == y[test]).float().mean().item()
        print(f"epoch {epoch} train loss {train_loss:.4f} test accuracy {acc:.4f}")
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
