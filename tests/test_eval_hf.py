"""The transformers backend with a tiny randomly initialised GPT-2 and a
character tokenizer built here: nothing is downloaded."""
from __future__ import annotations

import pytest

from evaluation.config import EvalConfig
from evaluation.runner import run_eval
from tests.eval_fixtures import FILLERS, FACTS, write_items

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    from evaluation import prompts as P

    text = "".join(f"{h}{r}{t}{s}" for *_, h, r, t, s in FACTS) + "".join(FILLERS) + P.RANKING_INSTRUCTION
    text += P.INSTRUCTION["qa"] + P.INSTRUCTION["kgc"] + P.MC_LL_BODY + P.MC_LL_CUE + "0123456789ABCDEFGHIJ.，？（）"
    chars = sorted(set(text))
    vocab = {"[UNK]": 0, "[EOS]": 1, **{c: i + 2 for i, c in enumerate(chars)}}
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Split(tokenizers.Regex("."), behavior="isolated")
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", eos_token="[EOS]",
                                                bos_token="[EOS]")
    torch.manual_seed(0)
    cfg = transformers.GPT2Config(vocab_size=len(vocab), n_positions=512, n_embd=32, n_layer=2, n_head=2,
                                  bos_token_id=1, eos_token_id=1)
    model = transformers.GPT2LMHeadModel(cfg).eval()
    path = tmp_path_factory.mktemp("tiny-gpt2")
    fast.save_pretrained(path)
    model.save_pretrained(path)
    return path, fast, model


def test_loglikelihood_is_the_sum_of_continuation_token_logprobs(tiny_model):
    from evaluation.models import make_model

    path, fast, model = tiny_model
    backend = make_model(f"hf:{path}")
    assert backend.supports_loglikelihood
    prompt, options = "问题：李白的朝代是什么？\n答案：", ["唐朝", "宋朝"]
    got = backend.loglikelihood(prompt, options)
    for opt, score in zip(options, got):
        ctx, cont = fast(prompt)["input_ids"], fast(opt, add_special_tokens=False)["input_ids"]
        ids = torch.tensor([ctx + cont])
        with torch.no_grad():
            lp = torch.log_softmax(model(ids).logits[0], dim=-1)
        expected = sum(float(lp[len(ctx) - 1 + i, t]) for i, t in enumerate(cont))
        assert score == pytest.approx(expected, abs=1e-4)
    assert got[0] != got[1]
    gen = backend.generate(["长江"])[0]
    assert gen.error is None and isinstance(gen.text, str)


def test_eval_ranks_options_by_loglikelihood(tiny_model, tmp_path):
    path, *_ = tiny_model
    build = write_items(tmp_path / "b")
    doc = run_eval(str(build), str(tmp_path / "o"), EvalConfig(tasks=["qa"], limit=1), model_spec=f"hf:{path}")
    assert doc["counts"]["asked"] == 2 and doc["counts"]["errors"] == 0
    import pyarrow.parquet as pq

    preds = pq.read_table(tmp_path / "o" / "predictions.parquet").to_pylist()
    for p in preds:
        assert p["parse_status"] == "loglik"
        assert p["ranking"] == sorted(range(10), key=lambda i: (-p["logliks"][i], i))


def test_missing_model_folder_is_a_clear_error(tmp_path):
    from evaluation.models import make_model
    from pipeline.errors import CdtpError

    with pytest.raises(CdtpError, match="cannot load a local transformers model"):
        make_model(f"hf:{tmp_path / 'nothing'}")
