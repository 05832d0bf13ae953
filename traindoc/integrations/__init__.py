"""One-line integrations for users who would rather add a callback than wrap the launcher.

- :class:`traindoc.integrations.lightning.TraindocCallback` (a Lightning ``Callback``);
- :class:`traindoc.integrations.hf.TraindocCallback` (a ``transformers.TrainerCallback``).

Both scope a :class:`traindoc.Monitor` to the fit: the same global hooks, the same run
folder, the same diagnosis as ``traindoc run``. Each module imports its framework on
import, so the core install stays light.
"""
