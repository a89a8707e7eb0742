"""CUGE multi-level scores, significance and SuperCLUE-style judging (issue 13), pure parts."""
import math

import pytest

from evaluation.judge import LOSS, TIE, WIN, combine, judge_items, outcome_rates, parse_verdict
from evaluation.leaderboard import build_leaderboard, leaderboard_rows, load_hierarchy, markdown_table
from evaluation.significance import bootstrap_ci, paired_bootstrap_pvalue, pearson, spearman


def _row(model, task, domain, metric, value, fp="fp1", created="2026-11-23T00:00:00Z"):
    return dict(run_id=f"{model}-{task}", model=model, task=task, domain=domain, split="eval",
                dataset=f"CDTP_{domain}_{task.upper()}", metric=metric, value=value, n=100, fingerprint=fp,
                code_version="x", created_at=created)


def _hierarchy():
    """The default hierarchy with the random model as the QA/KGC baseline (as a weights file may say)."""
    import dataclasses

    h = load_hierarchy()
    caps = tuple(dataclasses.replace(c, tasks=tuple(dataclasses.replace(t, baseline="random")
                                                     if t.baseline == "chance" else t for t in c.tasks))
                 for c in h.capabilities)
    return dataclasses.replace(h, capabilities=caps)


def _rows():
    rows = []
    for domain in ("HP", "NE"):
        rows += [_row("random", "qa", domain, "hits@1", 0.1), _row("random", "kgc", domain, "hits@1", 0.1),
                 _row("template", "t2t", domain, "bleu4", 0.2)]
        rows += [_row("m1", "qa", domain, "hits@1", 0.3), _row("m1", "kgc", domain, "hits@1", 0.2),
                 _row("m1", "t2t", domain, "bleu4", 0.3)]
        rows += [_row("m1", "qa", domain, "mrr", 0.9)]  # not the task's metric: ignored
    return rows


def test_scores_are_normalised_by_the_baseline_and_averaged_up_the_levels():
    h = _hierarchy()
    board = build_leaderboard(_rows(), h)
    assert board.dataset_scores["m1"]["CDTP_HP_QA"] == pytest.approx(300.0)  # 0.3 / 0.1 x 100
    assert board.task_scores["m1"]["qa"] == pytest.approx(300.0)
    assert board.task_scores["m1"]["t2t"] == pytest.approx(150.0)
    assert board.capability_scores["m1"]["knowledge_completion"] == pytest.approx(200.0)
    assert board.overall["m1"] == pytest.approx((300 + 200 + 150) / 3)
    # the baseline scores 100 everywhere it is the baseline
    assert board.dataset_scores["random"]["CDTP_NE_KGC"] == pytest.approx(100.0)
    assert board.ranked()[0] == "m1"


def test_a_missing_dataset_is_missing_never_zero():
    rows = [r for r in _rows() if not (r["model"] == "m1" and r["dataset"] == "CDTP_NE_KGC")]
    rows += [dict(r, model="m2", value=r["value"] / 2) for r in _rows() if r["model"] == "m1"]
    board = build_leaderboard(rows, _hierarchy())
    assert board.dataset_scores["m1"]["CDTP_NE_KGC"] is None
    assert board.task_scores["m1"]["kgc"] is None
    assert board.capability_scores["m1"]["knowledge_completion"] is None
    assert board.overall["m1"] is None
    assert board.overall["m2"] is not None
    # missing ranks after every scored model, not as 0 somewhere in the middle
    assert board.ranked().index("m1") > board.ranked().index("m2")
    assert "—" in markdown_table(board, _hierarchy())


def test_the_newest_run_wins_and_one_item_set_is_compared():
    rows = _rows() + [_row("m1", "qa", "HP", "hits@1", 0.5, created="2026-11-24T00:00:00Z")]
    rows += [_row("m2", "qa", "HP", "hits@1", 0.9, fp="other-items")]  # another item set: not comparable
    board = build_leaderboard(rows, _hierarchy())
    assert board.raw["m1"]["CDTP_HP_QA"] == 0.5
    assert "m2" not in board.models
    # ... and the board says which run was left out, and why (once silent)
    assert board.notes == ["CDTP_HP_QA: m2 (run m2-qa) left out: scored on item set other-items, not on fp1, "
                           "the one 2 model(s) were scored on; evaluate it on the same items to compare"]
    assert "> CDTP_HP_QA: m2 (run m2-qa) left out" in markdown_table(board, _hierarchy())
    # a dataset the board does not show gets no note
    assert build_leaderboard(rows, _hierarchy(), tasks=["kgc"]).notes == []


def test_baseline_without_a_score_is_a_note_not_a_crash():
    board = build_leaderboard(_rows(), _hierarchy(), baseline="absent-model")
    assert board.overall["m1"] is None
    assert any("absent-model" in n for n in board.notes)


def test_filters_and_long_rows():
    h = _hierarchy()
    board = build_leaderboard(_rows(), h, tasks=["qa"], domains=["HP"])
    assert board.datasets == ["CDTP_HP_QA"]
    assert board.overall["m1"] == pytest.approx(300.0)  # only one capability is on this board
    levels = {r["level"] for r in leaderboard_rows(board, h)}
    assert levels == {"overall", "capability", "task", "dataset"}


def test_tied_scores_share_a_rank():
    # two models with one score were ranked 3 and 4 (the tie broken by name, as if one were better)
    m1 = [r for r in _rows() if r["model"] == "m1"]
    rows = _rows() + [dict(r, model=m, value=r["value"] * f) for m, f in (("m2", 0.8), ("m3", 0.8), ("m4", 0.5))
                      for r in m1]
    h = _hierarchy()
    board = build_leaderboard(rows, h)
    assert board.ranks() == [(1, "m1"), (2, "m2"), (2, "m3"), (4, "m4"), (5, "random"), (5, "template")]
    assert {(r["model"], r["rank"]) for r in leaderboard_rows(board, h)} == {
        ("m1", 1), ("m2", 2), ("m3", 2), ("m4", 4), ("random", 5), ("template", 5)}
    assert [line.split(" | ")[:2] for line in markdown_table(board, h).splitlines()[2:6]] == [
        ["| 1", "m1"], ["| 2", "m2"], ["| 2", "m3"], ["| 4", "m4"]]


def test_chance_is_the_exact_expected_score():
    board = build_leaderboard(_rows(), load_hierarchy())
    assert board.dataset_scores["m1"]["CDTP_HP_QA"] == pytest.approx(300.0)  # 0.3 / 0.1 (chance) x 100
    zero = [dict(r, value=0.0) if r["model"] == "random" else r for r in _rows()]
    assert build_leaderboard(zero, load_hierarchy()).overall["m1"] is not None  # a 0 random run changes nothing


def test_bad_weights_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "w.json"
    bad.write_text('{"capabilities": [{"name": "x"}]}')
    with pytest.raises(ValueError, match="capabilities"):
        load_hierarchy(str(bad))
    # each was accepted: an unknown task dropped silently, a number for a baseline made every
    # score missing, a NaN weight made every mean NaN
    task = '{"task": "qa", "metric": "hits@1", "baseline": "chance", "weight": 1.0}'
    for changed, reason in ((task.replace('"qa"', '"bogus"'), r"unknown task\(s\) \['bogus'\]"),
                            (task.replace('"chance"', "5"), "baseline is a model spec"),
                            (task.replace("1.0", "NaN"), "finite numbers >= 0")):
        bad.write_text('{"capabilities": [{"name": "x", "tasks": [' + changed + ']}]}')
        with pytest.raises(ValueError, match=reason):
            load_hierarchy(str(bad))
    bad.write_text('{"capabilities": [{"name": "x", "tasks": [' + task + ']}]}')
    assert load_hierarchy(str(bad)).capabilities[0].tasks[0].task == "qa"


def test_correlations_match_scipy():
    stats = pytest.importorskip("scipy.stats")
    x, y = [0.1, 0.5, 0.4, 0.4, 0.9], [0.2, 0.3, 0.6, 0.5, 0.8]
    assert spearman(x, y) == pytest.approx(stats.spearmanr(x, y)[0])
    assert pearson(x, y) == pytest.approx(stats.pearsonr(x, y)[0])
    assert math.isnan(pearson([1.0], [2.0]))


def test_paired_bootstrap_tells_real_gaps_from_noise():
    a = [1.0] * 80 + [0.0] * 20
    b = [0.0] * 80 + [1.0] * 20
    assert paired_bootstrap_pvalue(a, b) < 0.01
    assert paired_bootstrap_pvalue(a, a) == 1.0
    noisy_a = [1.0, 0.0] * 50
    noisy_b = [0.0, 1.0] * 49 + [1.0, 1.0]  # one item apart
    assert paired_bootstrap_pvalue(noisy_b, noisy_a) > 0.05
    with pytest.raises(ValueError, match="same items"):
        paired_bootstrap_pvalue([1.0], [1.0, 0.0])


def test_pairs_with_too_few_items_get_no_p_value():
    """Two items once gave p = 0.000999: a "significant" difference read off two answers."""
    from evaluation.significance import MIN_PAIRED_ITEMS, TOO_FEW, pairwise_pvalues

    two = pairwise_pvalues({"a": {"1": 1.0, "2": 1.0}, "b": {"1": 0.0, "2": 0.0}})
    assert two == [dict(model_a="a", model_b="b", n=2, mean_a=1.0, mean_b=0.0, p_value=None, note=TOO_FEW)]
    ids = [str(i) for i in range(MIN_PAIRED_ITEMS)]
    enough = pairwise_pvalues({"a": dict.fromkeys(ids, 1.0), "b": dict.fromkeys(ids, 0.0)})[0]
    assert enough["note"] == "" and enough["p_value"] < 0.01


def test_bootstrap_interval_contains_the_rate():
    point, low, high = bootstrap_ci([1.0] * 30 + [0.0] * 70)
    assert point == pytest.approx(0.3)
    assert low < point < high


def test_verdicts_parse_the_last_conclusion():
    assert parse_verdict("结论：1") == "1"
    assert parse_verdict("回答1更详细，但是错了。结论：回答2") == "2"
    assert parse_verdict("结论：平局") == "tie"
    assert parse_verdict("我无法判断") is None


@pytest.mark.parametrize("text, verdict", [
    ("结论：一样好", "tie"),  # once "1": the 一 of 一样
    ("结论：二者相同", "tie"),  # once "2": the 二 of 二者
    ("结论：两者都不好", "tie"),
    ("Answer: 2. Although answer 1 is shorter, it is wrong.", "2"),  # once "1", from the explanation
    ("The better answer is 1; answer 2 misses the date.", "1"),
    ("结论：回答一", "1"),
    ("Verdict: tie", "tie"),
])
def test_verdicts_read_ties_and_ignore_answers_named_in_the_explanation(text, verdict):
    assert parse_verdict(text) == verdict


def test_order_swap_turns_position_bias_into_ties():
    assert combine("1", "2") == WIN
    assert combine("2", "1") == LOSS
    assert combine("1", "1") == TIE  # prefers the first answer both times: position bias
    assert combine("tie", "2") == TIE
    items = [dict(item_id=str(i), question=f"问题{i}", answer="金") for i in range(20)]
    always_first = judge_items(items, ["金"] * 20, ["银"] * 20, lambda ps: ["结论：1"] * len(ps))
    assert {j.outcome for j in always_first} == {TIE}
    rates = outcome_rates(always_first)
    assert rates[TIE]["rate"] == 1.0 and rates[WIN]["rate"] == 0.0


def test_a_consistent_judge_gives_wins_and_losses():
    items = [dict(item_id=str(i), question=f"问题{i}", answer="金") for i in range(10)]
    cand = ["金"] * 6 + ["铜"] * 4
    ref = ["银"] * 6 + ["金"] * 4

    def judge(prompts):  # a judge that checks the gold: picks the answer equal to it
        out = []
        for p in prompts:
            a1 = p.split("回答1：")[1].split("\n")[0]
            a2 = p.split("回答2：")[1].split("\n")[0]
            out.append("结论：1" if a1 == "金" else "结论：2" if a2 == "金" else "结论：平局")
        return out

    judged = judge_items(items, cand, ref, judge)
    rates = outcome_rates(judged)
    assert rates[WIN]["rate"] == pytest.approx(0.6)
    assert rates[LOSS]["rate"] == pytest.approx(0.4)
    assert rates[WIN]["ci95"][0] < 0.6 < rates[WIN]["ci95"][1]


def test_leaderboard_command_writes_tables_and_readable_plots(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from pipeline.cli import main
    from schemas.items import RESULT_SCHEMA

    rows = _rows() + [dict(r, model="m2", value=r["value"] * 0.8) for r in _rows() if r["model"] == "m1"]
    for m, closed, opened in (("m1", 0.3, 0.7), ("m2", 0.24, 0.5), ("random", 0.1, 0.2)):
        rows.append(dict(_row(m, "qa_open", "ALL", "judge_score", opened), dataset="CDTP_ALL_QA_OPEN"))
    results = tmp_path / "results"
    results.mkdir()
    pq.write_table(pa.Table.from_pylist(rows, schema=RESULT_SCHEMA), results / "part-0.parquet")
    out = tmp_path / "board"
    assert main(["leaderboard", "--results", str(results), "--out", str(out)]) == 0
    written = {p.name for p in out.iterdir()}
    assert {"leaderboard.md", "leaderboard.csv", "leaderboard.parquet", "scores_by_dataset.png"} <= written
    assert "closed_vs_open.png" in written  # three models with closed and open scores
    table = pq.read_table(out / "leaderboard.parquet").to_pylist()
    overall = {r["model"]: r["score"] for r in table if r["level"] == "overall"}
    assert overall["m1"] > overall["m2"]
    assert (out / "scores_by_dataset.png").stat().st_size > 10_000
    # a name the results do not hold was left out silently (a baseline: every score "—")
    for flag, value, said in (("--tasks", "qa,bogus", "--tasks: bogus not in the hierarchy"),
                              ("--domains", "HP,XX", "--domains: XX not in"),
                              ("--baseline", "nosuchmodel", "--baseline: nosuchmodel not in")):
        assert main(["leaderboard", "--results", str(results), "--out", str(tmp_path / "b2"), "--no-plots",
                     flag, value]) == 2
        assert said in capsys.readouterr().err


def test_leaderboard_out_in_a_build_is_refused_but_its_leaderboard_folder(tmp_path, capsys):
    """--out BUILD/pairs wrote leaderboard.parquet among the build's shards, and `cdtp query BUILD` failed."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from pipeline.cli import main
    from schemas.items import RESULT_SCHEMA

    build = tmp_path / "build"
    (build / "pairs" / "domain=HP").mkdir(parents=True)
    (build / "stats.json").write_text('{"funnel": [], "output_check": {}}', encoding="utf-8")
    results = build / "results"
    results.mkdir()
    pq.write_table(pa.Table.from_pylist(_rows(), schema=RESULT_SCHEMA), results / "part-0.parquet")
    for out in (build / "pairs", build / "pairs" / "domain=HP", build):
        assert main(["leaderboard", "--results", str(results), "--out", str(out), "--no-plots"]) == 2
        assert "is a cdtp build output: give it a folder of its own" in capsys.readouterr().err
    assert not list(build.rglob("leaderboard.*"))
    # BUILD/leaderboard is where `cdtp query BUILD` reads it (README, the demo)
    assert main(["leaderboard", "--results", str(results), "--out", str(build / "leaderboard"), "--no-plots"]) == 0
    assert (build / "leaderboard" / "leaderboard.parquet").exists()


def test_leaderboard_command_errors_are_clear(tmp_path, capsys):
    from pipeline.cli import main

    assert main(["leaderboard", "--results", str(tmp_path / "nope"), "--out", str(tmp_path / "o")]) == 2
    assert "no results table" in capsys.readouterr().err
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 not really")
    assert main(["leaderboard", "--results", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert "not readable Parquet" in capsys.readouterr().err
    # a Parquet file of another table among the results was read as rows of nulls, unseen
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "results"
    folder.mkdir()
    pq.write_table(pa.table({"pair_id": ["p1"]}), folder / "other.parquet")
    assert main(["leaderboard", "--results", str(folder), "--out", str(tmp_path / "o")]) == 2
    assert "other.parquet lacks column(s)" in capsys.readouterr().err
