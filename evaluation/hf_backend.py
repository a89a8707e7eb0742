"""Local Hugging Face transformers backend (optional extra: `pip install 'cdtp[hf]'`).

    hf:/path/to/model[?max_new_tokens=256&device=cpu]

The model is loaded from a local folder only (`local_files_only`, and the hub
client kept offline): nothing is downloaded. Options are ranked by
log-likelihood: the continuation's tokens are scored after the prompt's
(prompt and option tokenised apart and joined, the lm-evaluation-harness
convention, so an option's score never depends on how it merges with the
prompt's last characters). Generation is greedy.
"""
from __future__ import annotations

import urllib.parse
from typing import Sequence

from evaluation.backends import Generation
from pipeline.errors import CdtpError
from transforms.embed import forbid_hub_downloads


class HFBackend:
    supports_loglikelihood = True

    def __init__(self, target: str, *, spec: str) -> None:
        path, _, query = target.partition("?")
        opts = {k: v[-1] for k, v in urllib.parse.parse_qs(query).items()}
        forbid_hub_downloads()
        try:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError:
            raise CdtpError("the hf backend needs transformers and torch: pip install 'cdtp[hf]'") from None
        try:
            self.tok = AutoTokenizer.from_pretrained(path, local_files_only=True)
            self.model = AutoModelForCausalLM.from_pretrained(path, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise CdtpError(f"cannot load a local transformers model from {path}: {exc}") from None
        self.torch = torch
        self.device = opts.get("device", "cpu")
        self.model.to(self.device).eval()
        self.max_new_tokens = int(opts.get("max_new_tokens", 256))
        self.spec = spec

    def _ids(self, text: str, special: bool) -> list[int]:
        return self.tok(text, add_special_tokens=special)["input_ids"]

    def loglikelihood(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        torch = self.torch
        ctx = self._ids(str(prompt), True)
        if not ctx:
            start = self.tok.bos_token_id if self.tok.bos_token_id is not None else self.tok.eos_token_id
            ctx = [start]
        scores = []
        with torch.no_grad():
            for cont in continuations:
                cont_ids = self._ids(cont, False)
                if not cont_ids:
                    scores.append(float("-inf"))
                    continue
                ids = torch.tensor([ctx + cont_ids], device=self.device)
                logprobs = torch.log_softmax(self.model(ids).logits[0, :-1].float(), dim=-1)
                targets = ids[0, 1:]
                picked = logprobs.gather(1, targets[:, None])[:, 0]
                scores.append(float(picked[len(ctx) - 1 :].sum()))
        return scores

    def generate(self, prompts: Sequence[str]) -> list[Generation]:
        torch = self.torch
        out = []
        pad = self.tok.pad_token_id if self.tok.pad_token_id is not None else self.tok.eos_token_id
        with torch.no_grad():
            for p in prompts:
                ids = torch.tensor([self._ids(str(p), True)], device=self.device)
                gen = self.model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=self.max_new_tokens,
                                          do_sample=False, pad_token_id=pad)
                out.append(Generation(self.tok.decode(gen[0, ids.shape[1]:], skip_special_tokens=True)))
        return out

    def close(self) -> None:
        pass
