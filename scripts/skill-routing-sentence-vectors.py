#!/usr/bin/env python3
"""Routes the skill gold sets by sentence vectors alone, as a measurement (issue 38).

    python3 -m venv /tmp/wl && /tmp/wl/bin/pip install wordllama==0.4.0.post1
    /tmp/wl/bin/python scripts/skill-routing-sentence-vectors.py [tuning|held-out]

WordLlama's packaged model (l2_supercat, 256 dimensions, MIT; a Llama-2 token table trained for
sentence similarity) is read from the installed package, nothing is downloaded. A text's vector
is the mean of its tokens' rows, normalised; a skill's texts are its name, description,
triggers and the body headings of skill-intents-paraphrase.json; an intent routes to the skill
whose closest text has the highest cosine, when that cosine reaches the threshold. The split
and the rates are the bench's (contract 07 §8, `dotaios-bench quality --skills`). Prints one
row per threshold of the sweep.
"""
import hashlib
import json
import pathlib
import sys

import numpy as np
import wordllama
from safetensors.numpy import load_file
from tokenizers import Tokenizer

PACKAGE = pathlib.Path(wordllama.__file__).parent
DATA = pathlib.Path(__file__).resolve().parent.parent / "crates" / "bench" / "data"
TABLE = load_file(str(PACKAGE / "weights" / "l2_supercat_256.safetensors"))["embedding.weight"]
TABLE = TABLE.astype(np.float32)
TOKENIZER = Tokenizer.from_file(str(PACKAGE / "tokenizers" / "l2_supercat_tokenizer_config.json"))


def vector(text):
    mean = TABLE[TOKENIZER.encode(text).ids].mean(axis=0)
    return mean / np.linalg.norm(mean)


def main():
    part = sys.argv[1] if len(sys.argv) > 1 else "tuning"
    base = json.loads((DATA / "skill-intents.json").read_text())
    para = json.loads((DATA / "skill-intents-paraphrase.json").read_text())

    def held_out(intent):
        digest = hashlib.sha256(f"{para['split_seed']}\n{intent}".encode()).digest()
        return digest[0] % 2 == 1

    rows = [(i["intent"], i["gold"], "tuning") for i in base["intents"]]
    rows += [
        (i["intent"], i["gold"], "held-out" if held_out(i["intent"]) else "tuning")
        for i in para["intents"]
    ]
    skills = {}
    for skill in base["skills"]:
        texts = [skill["dir"].replace("-", " "), skill["description"], *skill["triggers"]]
        texts += para["headings"].get(skill["dir"], [])
        skills[skill["dir"]] = np.stack([vector(t) for t in texts])
    best = []
    for intent, gold, where in rows:
        if where != part:
            continue
        q = vector(intent)
        scores = {name: float((texts @ q).max()) for name, texts in skills.items()}
        top = max(scores, key=scores.get)
        best.append((gold, top, scores[top]))
    print("| threshold | part | top-1 | wrong skill | miss | false route |")
    print("|---|---|---:|---:|---:|---:|")
    for threshold in [0.0, 0.5, 0.55, 0.6, 0.65, 0.7]:
        right = wrong = miss = false_route = 0
        with_gold = sum(1 for gold, _, _ in best if gold is not None)
        without = len(best) - with_gold
        for gold, top, score in best:
            routed = score >= threshold
            if gold is None:
                false_route += routed
            elif routed and top == gold:
                right += 1
            elif routed:
                wrong += 1
            else:
                miss += 1
        print(
            f"| {threshold:.2f} | {part} | {right / with_gold:.3f} | {wrong / with_gold:.3f} "
            f"| {miss / with_gold:.3f} | {false_route / max(without, 1):.3f} |"
        )


if __name__ == "__main__":
    main()
