"""Waypoint predictor for vision-language navigation: frozen encoders, trainable transformer head."""
import torch
import torch.nn as nn


def train(args, rgb_encoder, depth_encoder, predictor, trainloader, get_gt_nav_map, device):
    criterion_mse = nn.MSELoss(reduction="none")
    optimizer = torch.optim.AdamW(predictor.parameters(), lr=args.LR)
    for epoch in range(args.EPOCH):
        sum_loss = 0.0
        rgb_encoder.eval()
        depth_encoder.eval()
        predictor.train()
        for i, data in enumerate(trainloader):
            rgb_imgs = data["rgb"].to(device)
            depth_imgs = data["depth"].to(device)
            with torch.no_grad():
                rgb_feats = rgb_encoder(rgb_imgs)
                depth_feats = depth_encoder(depth_imgs)
            target, weight = get_gt_nav_map(data["scan_id"], data["waypoint_id"])
            target, weight = target.to(device), weight.to(device)
            vis_logits = predictor(rgb_feats, depth_feats)
            loss_vis = criterion_mse(vis_logits, target) * weight
            total_loss = loss_vis.sum() / vis_logits.size(0) / args.ANGLES
            total_loss.backward()  # expect: gradients-never-cleared
            optimizer.step()
            sum_loss += total_loss.item()
        print("epoch", epoch, "train loss", sum_loss / (i + 1))


@torch.no_grad()
def evaluate(rgb_encoder, depth_encoder, predictor, evalloader, get_gt_nav_map, device, angles):
    rgb_encoder.eval()
    depth_encoder.eval()
    predictor.eval()
    total, n = 0.0, 0
    for data in evalloader:
        rgb_feats = rgb_encoder(data["rgb"].to(device))
        depth_feats = depth_encoder(data["depth"].to(device))
        target, _ = get_gt_nav_map(data["scan_id"], data["waypoint_id"])
        vis_logits = predictor(rgb_feats, depth_feats)
        total += ((vis_logits - target.to(device)) ** 2).sum().item() / vis_logits.size(0) / angles
        n += 1
    predictor.train()
    return total / max(n, 1)
