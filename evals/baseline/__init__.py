"""The offline `baseline` agent of layer 2: a deterministic, non-LLM reader of memgpt_lite's memory tools.

It receives the question only and uses the tools an LLM agent has (`FunctionModel`, `agent.baseline_reply`).
It is a rule-based reader, and some of its rules are keyword rules. What it reads of a question:

- the identifiers written in it (tickets, paths, routes, versions: `evals.identifiers`' patterns), in
  memory's own forms ("bh-142", "#142", a file name without its directory: `question.memory_forms`), and
  page names as memory's records name their routes (`question.page_routes`);
- its dates, with `dateparser`, `cn2an` and `text2num`, and the relation words around them
  (before / after / since / until / between and their Chinese forms: a bilingual word table in
  `evals.dates`);
- memory's own labels (a record's kind, claim and bug state: "root cause", "release note", "fixed")
  written out in it, matched by Snowball stem (`reading.named_labels`); a Chinese question first read in
  memory's words through CC-CEDICT (`evals.gloss`);
- and a few keyword lists of its own: "why" / 为什么 / 为何 / 怎么会 asks for a cause
  (`reading._ASKS_WHY`); "file", "module", "where" / 文件 / 哪里 / 在哪 with "now", "currently" / 现在 /
  目前 … asks for a file under its current name (`question._ASKS_FILE`, `question._NOW`); sentences end
  at . ! ? 。！？ and the last one that asks is the topic (`question.asked_sentence`).

What it decides, in order (`answer`): exact lookups before the ranked search (`agent.plan`); what is on
topic (`ranking.on_topic`: hits carrying the most specific identifiers named, within the versions and
days named; with nothing named, the kind of record the question writes out or what stands out close to
it: a cosine floor and a standing-out test, `ranking.standing_out`); only current, trusted, settled
records support (`hits.can_support`), or what replaced or settled them (`rules`); a fixed order of
preferences picks the best (`answer._Ranker`); checks turn it into `no_match` (a time, a bug state or a
kind of statement memory does not hold; a retest due; untrusted text as recent); records memory links
to it are cited beside it (a rename note, a patch release's note, a second claim asked); claims are
copied from the cited records' fields.

It never sees a case or the evaluator, and shares no decision code with layer 1 (`evals.layer1`, an
audit that decides no answer); only the identifier patterns are common.

**Frozen as a documented floor.** Its rules were tuned over eight sessions, many of them on the misses
of held-out sets (`evals/datasets/manifest.yaml` lists, for each set, its first blind score and the
commits tuned on it since), so its figures on those sets are development figures, not blind ones. It is
no longer tuned: it is the offline floor layer 2 reports beside real agents (docs/evals.md gives its
figures on every set). No rule names a case set; a change that moves any figure on any set is a new
baseline, to be recorded as such in the manifest.
"""
