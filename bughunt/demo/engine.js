// The simulation engine, a line-for-line port of the seed script (and of bughunt/sim in Python):
// same mulberry32, same link order, same places where random numbers are drawn. The site data
// above this block is generated from bughunt/site.py; nothing here names a page.

export const BASE_TOKENS = 3000;
export const ENTRY_TOKENS = 40;
export const MAX_STEPS = 5000;
export const BUDGET = 30;

export function mulberry32(seed) {
  let a = seed | 0;
  return function rnd() {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(rnd, items) {
  return items[Math.floor(rnd() * items.length)];
}

// Memory of visited pages, each remembered with its link table. A Map keeps insertion order,
// which is the write order (FIFO) or the use order (LRU) exactly like the seed's dict.
export class Memory {
  constructor(capacity, policy, rnd) {
    this.capacity = capacity ?? null;
    this.policy = policy || "fifo";
    this.rnd = rnd;
    this.items = new Map();
  }
  write(page) {
    if (this.items.has(page)) {
      if (this.policy === "lru") {
        this.items.delete(page);
        this.items.set(page, LINKS[page]);
      }
      return;
    }
    if (this.capacity !== null && this.items.size >= this.capacity) {
      const keys = [...this.items.keys()];
      const victim = this.policy === "random" ? keys[Math.floor(this.rnd() * keys.length)] : keys[0];
      this.items.delete(victim);
    }
    this.items.set(page, LINKS[page]);
  }
}

export function nextPage(strategy, cur, mem, rnd) {
  const links = LINKS[cur];
  if (strategy === "random") return pick(rnd, links);
  const fresh = links.filter((q) => !mem.items.has(q));
  if (fresh.length) return pick(rnd, fresh);
  if (strategy === "frontier") {
    // BFS over remembered links to the nearest page memory does not hold; step toward it.
    const prev = new Map([[cur, null]]);
    const queue = [cur];
    while (queue.length) {
      let p = queue.shift();
      if (p !== cur && !mem.items.has(p)) {
        while (prev.get(p) !== cur) p = prev.get(p);
        return p;
      }
      for (const q of p === cur ? LINKS[p] : mem.items.get(p) ?? []) {
        if (!prev.has(q)) {
          prev.set(q, p);
          queue.push(q);
        }
      }
    }
    return null; // everything remembered is visited: the agent believes it is done
  }
  return pick(rnd, links);
}

// A stepwise run, so the page can animate one click at a time. `step()` returns false when done.
export class Run {
  constructor({ strategy = "random", seed = 1000, capacity = null, policy = "fifo", budget = BUDGET,
                untilAllBugs = false, baseTokens = BASE_TOKENS, entryTokens = ENTRY_TOKENS } = {}) {
    Object.assign(this, { strategy, seed, capacity, policy, budget, untilAllBugs, baseTokens, entryTokens });
    this.rnd = mulberry32(seed);
    this.useMem = strategy !== "random";
    this.mem = this.useMem ? new Memory(capacity, policy, this.rnd) : null;
    this.cur = 0;
    this.seen = new Set([0]);
    this.reported = new Set();
    this.path = [0];
    this.repeats = 0;
    this.reports = 0;
    this.tokens = 0;
    this.steps = 0;
    this.done = false;
    this.stopped = false; // the frontier agent stopped by itself
    if (this.useMem) this.mem.write(0);
  }
  get limit() {
    return this.untilAllBugs ? MAX_STEPS : this.budget;
  }
  step() {
    if (this.done || this.steps >= this.limit) {
      this.done = true;
      return false;
    }
    this.tokens += this.baseTokens + (this.useMem ? this.entryTokens * this.mem.items.size : 0);
    const nxt = nextPage(this.strategy, this.cur, this.mem, this.rnd);
    if (nxt === null) {
      this.done = this.stopped = true;
      return false;
    }
    this.cur = nxt;
    this.steps += 1;
    this.path.push(nxt);
    if (this.seen.has(nxt)) this.repeats += 1;
    this.seen.add(nxt);
    if (BUG_PAGES.includes(nxt) && !(this.useMem && this.reported.has(nxt))) {
      this.reports += 1; // without memory every pass over a bug page reports it again
      this.reported.add(nxt);
    }
    if (this.useMem) this.mem.write(nxt);
    if ((this.untilAllBugs && this.reported.size === BUG_PAGES.length) || this.steps >= this.limit) this.done = true;
    return true;
  }
  result() {
    return {
      path: [...this.path],
      coverage: this.seen.size / PAGES.length,
      repeats: this.repeats,
      repeatRate: this.repeats / Math.max(this.steps, 1),
      bugsFound: this.reported.size,
      reports: this.reports,
      dups: this.reports - this.reported.size,
      tokens: this.tokens,
      steps: this.steps,
    };
  }
}

export function runSim(options = {}) {
  const run = new Run(options);
  while (run.step());
  return run.result();
}

// ---- statistics: the same formulas and rounding as the Python engine --------------------------
function fsum(xs) {
  // Neumaier summation: close to Python's math.fsum for these small samples.
  let s = 0, c = 0;
  for (const x of xs) {
    const t = s + x;
    c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
    s = t;
  }
  return s + c;
}

export function meanCI(xs) {
  const n = xs.length;
  const m = fsum(xs) / n;
  const sd = Math.sqrt(fsum(xs.map((x) => (x - m) * (x - m))) / (n - 1));
  const half = (1.96 * sd) / Math.sqrt(n);
  return { mean: m, lo: m - half, hi: m + half, half };
}

// Proportion -> percent with one decimal, half up (the seed's `pct`; Python's format rounds half to even).
export function pct(x, sign = false) {
  const v = Math.floor(x * 1000 + 1e-9 + 0.5) / 10;
  const s = v.toFixed(1);
  return sign && v >= 0 ? "+" + s : s;
}

export const SEED0 = 1000;
export const RUNS = 200;

export function batch(options, runs = RUNS, seed0 = SEED0) {
  const out = [];
  for (let i = 0; i < runs; i++) out.push(runSim({ ...options, seed: seed0 + i }));
  return out;
}

// Paired difference of `metric` between two configurations over the same seeds.
export function pairedDiff(a, b, metric = "coverage") {
  const d = a.map((r, i) => r[metric] - b[i][metric]);
  return { ...meanCI(d), wins: d.filter((x) => x > 0).length, n: d.length };
}
