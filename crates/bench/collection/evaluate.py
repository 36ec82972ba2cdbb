#!/usr/bin/env python3
"""Scores the runs of `dotaios-bench collection` (contract 07 §9.4).

Reads the directory that `dotaios-bench collection --out <DIR>` wrote (aios/vault/*.md,
topics.tsv, qrels.txt, runs/*.trec, runs/meta.json), adds tantivy as a further control
(runs/tantivy.trec: the Python package's default BM25, k1 1.2 and b 0.75, over one text field
with its `en_stem` analyzer: simple tokenizer, lower case, English Snowball stemmer), then scores
every run with trec_eval (pytrec_eval-terrier: an evaluator nobody here wrote) at 10 results:
nDCG@10 (graded gains), MRR@10 and R@10 (relevant = gain >= 1). A query a system did not
answer scores 0. Each system is compared with the best BM25 control of the same run by a
two-sided paired t-test on per-query nDCG@10.

Prints one Markdown table on stdout and writes the JSON report. It reads the run directory and
writes only runs/tantivy.trec there and the report where asked.
"""

import argparse
import json
import math
import re
import sys
from pathlib import Path

import pytrec_eval
import scipy.stats
import tantivy

DEPTH = 10
MEASURES = {"ndcg_cut_10": "ndcg10", "recip_rank": "mrr10", "recall_10": "r10"}
BASELINES = ("bm25", "bm25-snowball", "tantivy")
TANTIVY_NAME = "control: tantivy (BM25, en_stem)"


def read_topics(path):
    topics = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line:
            qid, text = line.split("\t", 1)
            topics[qid] = text
    return topics


def read_qrels(path):
    qrels = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) == 4:
            qrels.setdefault(fields[0], {})[fields[2]] = int(fields[3])
    return qrels


def read_run(path):
    """A TREC run as {qid: {docid: score}}, only the first DEPTH results of each query."""
    run = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        qid, _, docid, rank, score, _ = line.split()
        if int(rank) <= DEPTH:
            run.setdefault(qid, {})[docid] = float(score)
    return run


def tantivy_run(vault, topics):
    """The tantivy control over the same notes the other systems read, whole text one field."""
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    builder.add_text_field("body", stored=False, tokenizer_name="en_stem")
    schema = builder.build()
    index = tantivy.Index(schema)
    writer = index.writer(heap_size=50_000_000, num_threads=1)
    for note in sorted(vault.glob("*.md")):
        writer.add_document(
            tantivy.Document(id=note.stem, body=note.read_text(encoding="utf-8"))
        )
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    searcher = index.searcher()
    run = {}
    for qid, text in topics.items():
        # The query's words only, so no character of a question is read as query syntax.
        words = re.findall(r"[^\W_]+", text.lower())
        if not words:
            continue
        hits = searcher.search(index.parse_query(" ".join(words), ["body"]), DEPTH).hits
        # Scores by rank (DEPTH + 1 - rank), so trec_eval keeps tantivy's order, ties included.
        run[qid] = {
            searcher.doc(address)["id"][0]: float(DEPTH - rank)
            for rank, (_, address) in enumerate(hits)
        }
    return run


def write_run(path, tag, run):
    lines = []
    for qid in sorted(run, key=int):
        ranked = sorted(run[qid].items(), key=lambda item: -item[1])
        for rank, (docid, score) in enumerate(ranked, 1):
            lines.append(f"{qid} Q0 {docid} {rank} {score:g} {tag}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def per_query(evaluator, qrels, run):
    """{qid: {ndcg10, mrr10, r10}} for every judged query; an unanswered one scores 0."""
    scored = evaluator.evaluate({qid: docs for qid, docs in run.items() if docs})
    out = {}
    for qid in qrels:
        values = scored.get(qid, {})
        out[qid] = {short: values.get(measure, 0.0) for measure, short in MEASURES.items()}
    return out


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def paired_p(a, b):
    """Two-sided paired t-test p-value; 1.0 when the two are identical."""
    differences = [x - y for x, y in zip(a, b)]
    if all(d == 0 for d in differences):
        return 1.0
    p = scipy.stats.ttest_rel(a, b).pvalue
    return 1.0 if math.isnan(p) else float(p)


def evaluate(directory, report_path):
    topics = read_topics(directory / "topics.tsv")
    qrels = read_qrels(directory / "qrels.txt")
    meta = json.loads((directory / "runs" / "meta.json").read_text(encoding="utf-8"))
    judged = {qid: docs for qid, docs in qrels.items() if any(g > 0 for g in docs.values())}
    evaluator = pytrec_eval.RelevanceEvaluator(judged, set(MEASURES))

    systems = [dict(system) for system in meta["systems"]]
    tantivy_path = directory / "runs" / "tantivy.trec"
    write_run(tantivy_path, "tantivy", tantivy_run(directory / "aios" / "vault", topics))
    systems.append({"id": "tantivy", "name": TANTIVY_NAME, "truncated": 0, "unmapped": 0})

    for system in systems:
        run = read_run(directory / "runs" / f"{system['id']}.trec")
        system["per_query"] = per_query(evaluator, judged, run)
        for short in MEASURES.values():
            system[short] = mean(q[short] for q in system["per_query"].values())
        sizes = [min(len(run.get(qid, {})), DEPTH) for qid in topics]
        system["results_mean"] = mean(sizes)
        system["answers_full"] = sum(1 for size in sizes if size >= DEPTH)

    baselines = [s for s in systems if s["id"] in BASELINES]
    best = max(baselines, key=lambda s: s["ndcg10"])
    qids = sorted(judged, key=int)
    for system in systems:
        mine = [system["per_query"][qid]["ndcg10"] for qid in qids]
        theirs = [best["per_query"][qid]["ndcg10"] for qid in qids]
        system["delta_ndcg10"] = system["ndcg10"] - best["ndcg10"]
        system["p_ndcg10"] = paired_p(mine, theirs)

    lines = [
        f"{meta['collection']}: {len(topics)} queries ({len(judged)} with a relevant "
        f"document); trec_eval at {DEPTH}; baseline: {best['name']}",
        "",
        "| system | nDCG@10 | Δ nDCG@10 vs baseline (p) | MRR@10 | R@10 "
        "| results per answer (answers with 10) | answers cut by the budget |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for s in systems:
        delta = "—" if s is best else f"{s['delta_ndcg10']:+.3f} (p {s['p_ndcg10']:.3f})"
        lines.append(
            f"| {s['name']} | {s['ndcg10']:.3f} | {delta} | {s['mrr10']:.3f} | {s['r10']:.3f} "
            f"| {s['results_mean']:.3f} ({s['answers_full']}/{len(topics)}) | {s['truncated']} |"
        )
    print("\n".join(lines))

    report = {
        "collection": meta["collection"],
        "evaluator": "trec_eval (pytrec_eval-terrier)",
        "depth": DEPTH,
        "queries": len(topics),
        "judged_queries": len(judged),
        "baseline": best["id"],
        "systems": systems,
    }
    Path(report_path).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path, help="the --out of dotaios-bench collection")
    parser.add_argument("--report", required=True, help="the JSON report to write")
    args = parser.parse_args(argv)
    evaluate(args.directory, args.report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
