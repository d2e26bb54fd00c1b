"""What lmms-eval's launcher expects of a model, shared by every backend of ours.

lmms-eval 0.7.3 runs a model in one process or in N (``torchrun --nproc_per_node N -m lmms_eval``
or ``accelerate launch -m lmms_eval``). Its ``__main__`` starts accelerate's ``Accelerator``, which
joins the process group the launcher set up; with N processes the evaluator then reads
``lm.device`` (the device of the tensors it all-gathers: CUDA under NCCL, CPU under gloo),
``lm.rank`` / ``lm.world_size`` (which shard of the documents this process answers) and, on the
accelerate path, ``lm.accelerator``. ``LauncherModel`` sets all four the way lmms-eval's own model
classes do, from an ``Accelerator`` of this process.

lmms-eval never destroys the process group of a multi-process run: the group, and its gloo threads,
outlive the interpreter's own shutdown, and tearing them down during finalization now and then aborts
a rank after the results are written ("terminate called without an active exception", exit -6;
torchrun then exits 1). A backend of ours therefore destroys the group, if there is one, at exit
(``destroy_process_group_at_exit``), while the interpreter is still whole, as PyTorch asks
(https://pytorch.org/docs/stable/distributed.html#shutdown). lmms-eval's own model classes still
leave the group to finalization (an lmms-eval matter).

lmms-eval's ``-n K`` (K > 1) hands a model each request K times, but a ``generate_until`` task keeps
only the first of the K replies (its ``take_first`` filter): the figures would be one draw's while the
run says K. ``refuse_repeats`` stops such a run before anything is generated; every backend's
``generate_until`` calls it first.

Files that several processes may write at once (corpus-embedding and image caches) go through
``write_atomically``: a temporary name unique to the writer beside the target, then ``os.replace``,
so a reader sees the old file, or the whole new one, and never a part.
"""

from __future__ import annotations

import atexit
import functools
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import IO

from lmms_eval.api.instance import Instance
from lmms_eval.api.model import lmms

from chronotasks.data.errors import SettingsError

REPEATS_REFUSED = (
    "lmms-eval -n {repeats}: lmms-eval scores only the first of the {repeats} replies to each question, "
    "so the figures would be one draw's; chronotasks refuses repeats. For run-to-run spread run once "
    "per seed (--seed 1, --seed 2, ...; a separate --output_path each) and give every run folder to "
    "`chronotasks report`."
)


class LauncherModel(lmms):
    """An lmms-eval model with ``accelerator``, ``rank``, ``world_size`` and ``device`` set.

    ``device``: the model's device when one process runs (``None``: the accelerator's, i.e. the GPU
    if there is one, else the CPU). With several processes each uses its accelerator's device (its
    own GPU, or the CPU), as lmms-eval's classes do.
    """

    def __init__(self, device: str | None = None) -> None:
        super().__init__()
        import torch
        from accelerate import Accelerator

        self.accelerator = Accelerator()
        self._rank = self.accelerator.process_index
        self._world_size = self.accelerator.num_processes
        if self._world_size > 1 or not device:
            self._device = self.accelerator.device
        else:
            self._device = torch.device(device)
        destroy_process_group_at_exit()  # (a no-op at exit in one process: no group)

    @property
    def device(self):
        return self._device

    def refuse_repeats(self, requests: list[Instance]) -> None:
        """A ``SettingsError`` (one line, exit status 1) when lmms-eval's ``-n`` asks for more than one
        reply per question, before anything is generated (see the module's docstring)."""
        repeats = max((request.repeats or 1 for request in requests), default=1)
        if repeats > 1:
            raise SettingsError(REPEATS_REFUSED.format(repeats=repeats))

    @classmethod
    def create_from_arg_string(cls, arg_string: str, additional_config: dict | None = None):
        """As lmms-eval's, with the --model_args checked first (``arguments.check_model_args``: an unknown
        key lists the valid ones, a wrong type names the argument, in one line) and converted to their
        types; a key given in --model_args wins over the launcher's value of it (e.g. batch_size)."""
        from lmms_eval import utils

        from chronotasks.model_shims.arguments import check_model_args

        args = check_model_args(cls, utils.simple_parse_args_string(arg_string or ""))
        extra = {k: v for k, v in (additional_config or {}).items() if v is not None and k not in args}
        return cls(**args, **extra)


@functools.cache
def destroy_process_group_at_exit() -> None:
    """Destroy the default process group when the interpreter exits (registered once; see the module's
    docstring). By then every collective of the run is over: destroying the group is local."""
    import torch.distributed as dist

    def destroy() -> None:
        if dist.is_available() and dist.is_initialized():
            dist.destroy_process_group()

    atexit.register(destroy)


def temporary_path(target: Path) -> Path:
    """A hidden name beside ``target`` that no other process or thread uses."""
    return target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")


def write_atomically(target: Path, write: Callable[[IO[bytes]], object]) -> Path:
    """Write ``target`` through ``write(binary_handle)`` under a temporary name, then rename it."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_path(target)
    try:
        with open(tmp, "wb") as handle:
            write(handle)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()
    return target
