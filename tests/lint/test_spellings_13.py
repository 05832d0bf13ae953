"""Spellings added in the fourteenth pass (December 2026, from the misses of the nineteenth
recall corpus, read after the twentieth was commissioned): each case as in
test_catalogue.py (a line ending in `# !` must be reported by the rule and no other line).
Written in new words; near misses included as negatives."""

from textwrap import dedent

import pytest

from tests.lint.test_catalogue import check

CASES = {
    "tensor-op-result-discarded": [
        # a tensor read as one by a tensor-only method (is_floating_point) before the lone .to
        """
        def place(buf, target, dtype=None):
            if dtype is not None and buf.is_floating_point():
                buf = buf.to(dtype)
            buf.to(target)  # !
            return buf
        """,
        # the parameters of a module, converted one by one
        """
        def cast(net, dtype):
            for pname, weight in net.named_parameters():
                if "norm" not in pname:
                    weight.to(dtype)  # !
            return net
        """,
        # near miss: the modules of a network (.to on a module is in place)
        """
        def cast(net, dtype):
            for mname, sub in net.named_modules():
                sub.to(dtype)
            return net
        """,
    ],
    "softmax-without-dim": [
        # near miss: a file of another array library (tinygrad's softmax has a default axis)
        """
        from tinygrad import Tensor

        def attend(q, k):
            return (q @ k.transpose(1, 2)).softmax()
        """,
        """
        def attend(q, k, v):
            w = torch.bmm(q, k.transpose(1, 2))
            w = w.softmax()  # !
            return torch.bmm(w, v)
        """,
        # near miss: the method with its dim
        """
        def attend(q, k, v):
            return torch.bmm(torch.bmm(q, k.transpose(1, 2)).softmax(-1), v)
        """,
    ],
    "gradients-never-cleared": [
        # the clear only on the branch without mixed precision
        """
        def run(net, opt, scaler, feed, mixed):
            for xb, yb in feed:
                loss = F.mse_loss(net(xb), yb)
                if mixed:
                    scaler.scale(loss).backward()
                    scaler.step(opt)
                    scaler.update()
                else:
                    loss.backward()
                    opt.step()
                    opt.zero_grad()  # !
        """,
        # near miss: the clear after the branches, on both paths
        """
        def run(net, opt, scaler, feed, mixed):
            for xb, yb in feed:
                loss = F.mse_loss(net(xb), yb)
                if mixed:
                    scaler.scale(loss).backward()
                    scaler.step(opt)
                    scaler.update()
                else:
                    loss.backward()
                    opt.step()
                opt.zero_grad()
        """,
        # near miss: each branch clears its own way
        """
        def run(net, opt, scaler, feed, mixed):
            for xb, yb in feed:
                loss = F.mse_loss(net(xb), yb)
                if mixed:
                    scaler.scale(loss).backward()
                    scaler.step(opt)
                    opt.zero_grad(set_to_none=True)
                else:
                    loss.backward()
                    opt.step()
                    opt.zero_grad()
        """,
        # near miss: an LBFGS branch whose closure clears
        """
        def run(net, opt, feed, lbfgs):
            for xb, yb in feed:
                if lbfgs:
                    def closure():
                        opt.zero_grad()
                        out = F.mse_loss(net(xb), yb)
                        out.backward()
                        return out
                    opt.step(closure)
                else:
                    F.mse_loss(net(xb), yb).backward()
                    opt.step()
                    opt.zero_grad()
        """,
        # near miss: the other branch clears by hand
        """
        def run(net, opt, scaler, feed, mixed):
            for xb, yb in feed:
                loss = F.mse_loss(net(xb), yb)
                if mixed:
                    scaler.scale(loss).backward()
                    scaler.step(opt)
                    for p in net.parameters():
                        p.grad = None
                else:
                    loss.backward()
                    opt.step()
                    opt.zero_grad()
        """,
        # near miss: an alternating GAN, each branch its own optimizer
        """
        def run(gen, disc, opt_g, opt_d, feed):
            for i, real in enumerate(feed):
                if i % 2 == 0:
                    gen.zero_grad()
                    disc.zero_grad()
                    disc(real).mean().backward()
                    opt_d.step()
                else:
                    disc(gen(real)).mean().backward()
                    opt_g.step()
        """,
    ],
    "state-dict-not-copied": [
        # the snapshot taken before a call of the file's training function, restored after it
        """
        def tune(net, feed):
            o = torch.optim.Adam(net.parameters())
            for xb, yb in feed:
                o.zero_grad()
                F.mse_loss(net(xb), yb).backward()
                o.step()

        def rewind(net, feed):
            start = net.state_dict()  # !
            tune(net, feed)
            net.load_state_dict(start)
        """,
        # near miss: the training call gets a copy of the model, not the model
        """
        import copy

        def tune(net, feed):
            o = torch.optim.Adam(net.parameters())
            for xb, yb in feed:
                o.zero_grad()
                F.mse_loss(net(xb), yb).backward()
                o.step()

        def probe(net, feed):
            ref = net.state_dict()
            tune(copy.deepcopy(net), feed)
            net.load_state_dict(ref)
        """,
        # near miss: a deep copy
        """
        import copy

        def tune(net, feed):
            o = torch.optim.Adam(net.parameters())
            for xb, yb in feed:
                o.zero_grad()
                F.mse_loss(net(xb), yb).backward()
                o.step()

        def rewind(net, feed):
            start = copy.deepcopy(net.state_dict())
            tune(net, feed)
            net.load_state_dict(start)
        """,
    ],
    "bce-on-logits": [
        # near miss: the model built from a config dict (its activation cannot be seen)
        """
        import segmentation_models_pytorch as smp
        seg = smp.Unet(**cfg)
        crit = nn.BCELoss()

        def step(img, mask):
            return crit(seg(img), mask)
        """,
        """
        import segmentation_models_pytorch as smp
        seg = smp.FPN(encoder_name="resnet18", classes=1)
        crit = nn.BCELoss()

        def step(img, mask):
            return crit(seg(img), mask)  # !
        """,
        # near miss: the model built with its sigmoid
        """
        import segmentation_models_pytorch as smp
        seg = smp.FPN(encoder_name="resnet18", classes=1, activation="sigmoid")
        crit = nn.BCELoss()

        def step(img, mask):
            return crit(seg(img), mask)
        """,
    ],
}


@pytest.mark.parametrize("rule,src", [(r, dedent(s)) for r, cases in CASES.items() for s in cases])
def test_case(rule, src):
    check(rule, src)


def test_each_rule_has_both_ways():
    for rule, cases in CASES.items():
        assert any("# !" in c for c in cases) and any("# !" not in c for c in cases), rule
