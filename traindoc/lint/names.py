"""Canonical qualified names of the library functions and classes the rules look for.

Imports can spell one function many ways (``torch.nn.functional.softmax``,
``torch.softmax``, ``torch.special.softmax``, ``torch.nn.modules.activation.Softmax``);
:func:`canon` folds the spellings onto one name so rules compare plain strings.
"""

from __future__ import annotations


def canon(q: str) -> str:
    """Fold submodule spellings onto the public name (``torch.nn.modules.loss.X`` -> ``torch.nn.X``)."""
    if q.startswith("torch.nn.modules."):
        return "torch.nn." + q.rsplit(".", 1)[1]
    if q.startswith("torch.optim.") and q.count(".") >= 3 and q[-1:].isalpha():
        last = q.rsplit(".", 1)[1]
        if last[:1].isupper():  # torch.optim.sgd.SGD -> torch.optim.SGD
            return "torch.optim." + last
    if q.startswith("torch.functional."):  # torch.functional.norm is torch.norm
        return "torch." + q[len("torch.functional.") :]
    if q.startswith("torch.amp.autocast_mode."):
        return "torch.amp." + q.rsplit(".", 1)[1]
    if q.startswith("torch.amp.grad_scaler.") or q.startswith("torch.cuda.amp.grad_scaler."):
        return "torch.amp.GradScaler"
    if q.startswith("torch.utils.data.dataloader."):
        return "torch.utils.data." + q.rsplit(".", 1)[1]
    if q.startswith("pytorch_lightning."):
        return "lightning.pytorch." + q[len("pytorch_lightning.") :]
    return q


def _names(*qs: str) -> frozenset[str]:
    return frozenset(qs)


F = "torch.nn.functional."

SOFTMAX = _names("torch.softmax", F + "softmax", "torch.special.softmax", "torch.Tensor.softmax")
LOG_SOFTMAX = _names("torch.log_softmax", F + "log_softmax", "torch.special.log_softmax", "torch.Tensor.log_softmax")
SIGMOID = _names("torch.sigmoid", F + "sigmoid", "torch.special.expit", "torch.Tensor.sigmoid")
EXP = _names("torch.exp", "numpy.exp", "torch.Tensor.exp")
LOG = _names("torch.log", "torch.log2", "torch.log10", "numpy.log", "numpy.log2", "numpy.log10", "torch.Tensor.log")
SQRT = _names("torch.sqrt", "numpy.sqrt")
RSQRT = _names("torch.rsqrt")
DIV = _names("torch.div", "torch.divide", "torch.true_divide", "numpy.divide", "numpy.true_divide")
SUM = _names("torch.sum", "numpy.sum", "torch.nansum")
MEAN = _names("torch.mean", "numpy.mean", "torch.nanmean")
NORM = _names(
    "torch.norm", "torch.linalg.norm", "torch.linalg.vector_norm", "torch.linalg.matrix_norm",
    "torch.frobenius_norm", "numpy.linalg.norm",
)
VAR = _names("torch.var", "numpy.var", "torch.var_mean")
STD = _names("torch.std", "numpy.std")
COUNT = _names("torch.count_nonzero", "numpy.count_nonzero", "torch.bincount", "numpy.bincount")
SQUARE = _names("torch.square", "numpy.square")
POW = _names("torch.pow", "numpy.power")
CLAMPS = _names("torch.clamp", "torch.clip", "torch.clamp_min", "torch.clamp_max", "numpy.clip")

# Method names on tensors with the same meaning as the functions above.
M_PRESERVE = frozenset(
    "view reshape squeeze unsqueeze transpose permute contiguous float double half bfloat16 to detach "
    "clone flatten unflatten type_as expand expand_as t cpu cuda gather index_select masked_select "
    "narrow select movedim long int bool type".split()
)
M_MASK = frozenset("eq ne gt lt ge le isnan isinf isfinite isneginf isposinf logical_and logical_or logical_not logical_xor".split())

# Modules whose call returns a known kind of value.
MODULE_OUT = {
    "torch.nn.Softmax": "softmax",
    "torch.nn.Softmax2d": "softmax",
    "torch.nn.LogSoftmax": "log_softmax",
    "torch.nn.Sigmoid": "sigmoid",
    "torch.nn.ReLU": "relu",
    # raw scores: a layer with no output nonlinearity (bce-on-logits)
    "torch.nn.Linear": "logits",
    "torch.nn.LazyLinear": "logits",
    "torch.nn.Bilinear": "logits",
    "torch.nn.Conv1d": "logits",
    "torch.nn.Conv2d": "logits",
    "torch.nn.Conv3d": "logits",
    # segmentation_models_pytorch's models return logits unless built with activation=...
    **{f"segmentation_models_pytorch.{a}": "logits" for a in (
        "Unet", "UnetPlusPlus", "FPN", "PSPNet", "DeepLabV3", "DeepLabV3Plus", "Linknet", "MAnet", "PAN", "UPerNet",
        "Segformer")},
}

CROSS_ENTROPY_FN = _names(F + "cross_entropy")
CROSS_ENTROPY_MOD = _names("torch.nn.CrossEntropyLoss")
NLL_FN = _names(F + "nll_loss")
NLL_MOD = _names("torch.nn.NLLLoss")
BCE_FN = _names(F + "binary_cross_entropy")
BCE_MOD = _names("torch.nn.BCELoss")

LOSS_FNS = frozenset(
    F + n
    for n in (
        "cross_entropy nll_loss mse_loss l1_loss smooth_l1_loss huber_loss binary_cross_entropy "
        "binary_cross_entropy_with_logits kl_div ctc_loss poisson_nll_loss gaussian_nll_loss "
        "margin_ranking_loss hinge_embedding_loss multilabel_margin_loss soft_margin_loss "
        "multilabel_soft_margin_loss cosine_embedding_loss multi_margin_loss triplet_margin_loss"
    ).split()
)

# Optimizers whose update is lr * gradient (scales with the loss); the adaptive ones
# (Adam, AdamW, RMSprop, Adagrad, ...) divide by a running gradient scale, so a summed
# loss changes their step only through eps.
LOSS_SCALED_OPTIMIZERS = _names("torch.optim.SGD", "torch.optim.ASGD")

AUTOCAST = _names("torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast", "torch.cpu.amp.autocast")
GRAD_SCALERS = ("GradScaler", "ShardedGradScaler")
NO_GRAD = _names(
    "torch.no_grad", "torch.inference_mode", "torch.set_grad_enabled", "torch.autograd.no_grad",
    "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode",
    "torch.autograd.inference_mode", "torch.autograd.set_grad_enabled", "torch.enable_grad",
)
DATALOADER = _names("torch.utils.data.DataLoader")
# graph loaders with DataLoader's signature and its shuffle=False default (PyG, DGL)
GRAPH_DATALOADER = _names("torch_geometric.loader.DataLoader", "torch_geometric.data.DataLoader",
                          "torch_geometric.loader.DenseDataLoader", "dgl.dataloading.GraphDataLoader")
FP16 = _names("torch.float16", "torch.half", "numpy.float16")
BF16 = _names("torch.bfloat16")

# Every loss, function and module spelling, folded onto one short name (rules compare these).
LOSS_SHORT = {
    **{F + n: n for n in (
        "cross_entropy nll_loss mse_loss l1_loss smooth_l1_loss huber_loss binary_cross_entropy "
        "binary_cross_entropy_with_logits kl_div poisson_nll_loss gaussian_nll_loss ctc_loss "
        "multilabel_soft_margin_loss soft_margin_loss"
    ).split()},
    "torch.nn.CrossEntropyLoss": "cross_entropy", "torch.nn.NLLLoss": "nll_loss", "torch.nn.MSELoss": "mse_loss",
    "torch.nn.L1Loss": "l1_loss", "torch.nn.SmoothL1Loss": "smooth_l1_loss", "torch.nn.HuberLoss": "huber_loss",
    "torch.nn.BCELoss": "binary_cross_entropy", "torch.nn.BCEWithLogitsLoss": "binary_cross_entropy_with_logits",
    "torch.nn.KLDivLoss": "kl_div", "torch.nn.PoissonNLLLoss": "poisson_nll_loss",
    "torch.nn.GaussianNLLLoss": "gaussian_nll_loss", "torch.nn.CTCLoss": "ctc_loss",
    "torch.nn.MultiLabelSoftMarginLoss": "multilabel_soft_margin_loss", "torch.nn.SoftMarginLoss": "soft_margin_loss",
}
# Losses whose input and target play different roles (swapping them is a bug, not a no-op).
ASYMMETRIC_LOSSES = frozenset({"cross_entropy", "nll_loss", "binary_cross_entropy",
                               "binary_cross_entropy_with_logits", "kl_div"})
# Elementwise regression losses: input and target are broadcast against each other.
ELEMENTWISE_LOSSES = frozenset({"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"})
CLIP_GRAD = _names("torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_value_", "torch.nn.utils.clip_grad_norm",
                   "torch.nn.utils.clip_grad.clip_grad_norm_", "torch.nn.utils.clip_grad.clip_grad_value_")
DROPOUT_FNS = _names(F + "dropout", F + "dropout1d", F + "dropout2d", F + "dropout3d", F + "alpha_dropout",
                     F + "feature_alpha_dropout")
SOFTMAX_MODULES = _names("torch.nn.Softmax", "torch.nn.LogSoftmax", "torch.nn.Softmin")
SOFTMAX_FNS_DIM = _names(F + "softmax", F + "log_softmax", F + "softmin")
ONE_HOT = _names(F + "one_hot")
TORCH_LOAD = _names("torch.load")
TENSOR_FACTORIES = _names(
    "torch.tensor", "torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty", "torch.full",
    "torch.arange", "torch.linspace", "torch.randint", "torch.randn_like", "torch.rand_like", "torch.zeros_like",
    "torch.ones_like", "torch.empty_like", "torch.full_like", "torch.from_numpy", "torch.as_tensor", "torch.stack",
    "torch.cat", "torch.Tensor", "torch.FloatTensor", "torch.LongTensor", "torch.normal", "torch.eye",
)
