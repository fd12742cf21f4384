// The demo page's UI. All figures come from sim.js; this file only draws and wires controls.
import { PAGES, LOCAL, LINKS, BUG_PAGES, Run, runSim, batch, pairedDiff, meanCI, pct, BUDGET } from "./sim.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let run = null;
let timer = null;

// ---- layout: rows by click distance from Home, each row in discovery order --------------------
function layout() {
  const depth = new Map([[0, 0]]);
  const order = [0];
  for (let i = 0; i < order.length; i++) {
    for (const q of LINKS[order[i]]) if (!depth.has(q)) { depth.set(q, depth.get(order[i]) + 1); order.push(q); }
  }
  const rows = [];
  for (const p of order) (rows[depth.get(p)] ??= []).push(p);
  const pos = new Map();
  rows.forEach((row, d) => {
    const y = 45 + d * (430 / Math.max(rows.length - 1, 1));
    row.forEach((p, i) => pos.set(p, { x: (1000 * (i + 0.5)) / row.length, y: y + (d > 0 && i % 2 ? 26 : 0) }));
  });
  return pos;
}
const POS = layout();

function el(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// A page name in full: names longer than 13 characters wrap onto a second line at a space.
function label(name, x, y) {
  const t = el("text", { x, y });
  const cut = name.length > 13 ? name.lastIndexOf(" ", 13) : -1;
  const lines = cut > 0 ? [name.slice(0, cut), name.slice(cut + 1)] : [name];
  lines.forEach((line, i) => t.append(el("tspan", { x, dy: i ? 13 : 0 }, line)));
  return t;
}

function drawGraph() {
  const svg = $("graph");
  svg.replaceChildren();
  const edges = el("g");
  for (const p of PAGES) for (const q of LOCAL[p.index]) {
    const a = POS.get(p.index), b = POS.get(q);
    edges.append(el("line", { class: "edge", x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
  }
  svg.append(edges, el("g", { id: "walk" }), el("g", { id: "nodes" }));
  svg.append(el("text", { x: 8, y: 552, class: "visits" }, "Lines: local links. Every page also links Home, New Article, Settings, My Profile."));
  drawState();
}

function drawState() {
  const r = run.result();
  const visits = new Map();
  for (const p of r.path) visits.set(p, (visits.get(p) ?? 0) + 1);
  const walk = $("walk");
  walk.replaceChildren();
  const hops = new Map();
  for (let i = 1; i < r.path.length; i++) {
    const key = `${r.path[i - 1]}-${r.path[i]}`;
    hops.set(key, (hops.get(key) ?? 0) + 1);
  }
  for (const [key, n] of hops) {
    const [a, b] = key.split("-").map(Number);
    const pa = POS.get(a), pb = POS.get(b);
    walk.append(el("line", { class: "walk", x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y, "stroke-width": 2 + 2 * n }));
  }
  const nodes = $("nodes");
  nodes.replaceChildren();
  for (const p of PAGES) {
    const { x, y } = POS.get(p.index);
    const cls = ["node"];
    if (visits.has(p.index)) cls.push("seen");
    if (p.index === run.cur) cls.push("current");
    if (BUG_PAGES.includes(p.index)) cls.push(run.reported.has(p.index) ? "found" : "bug");
    const g = el("g", { class: cls.join(" "), "data-page": p.index });
    g.append(el("title", {}, `${p.name} (${p.route})`));
    g.append(el("circle", { cx: x, cy: y, r: 17 }));
    g.append(el("text", { x, y: y + 4 }, String(p.index)));
    g.append(label(p.name, x, y + 33));
    if (BUG_PAGES.includes(p.index)) g.append(el("text", { x: x + 17, y: y - 12, class: "badge" }, "!"));
    if ((visits.get(p.index) ?? 0) > 1) g.append(el("text", { x: x - 20, y: y - 14, class: "visits" }, `×${visits.get(p.index)}`));
    nodes.append(g);
  }
  $("f-step").textContent = `${r.steps} / ${run.budget}`;
  $("f-page").textContent = PAGES[run.cur].name;
  $("f-coverage").textContent = `${visits.size} / ${PAGES.length} (${pct(r.coverage)}%)`;
  $("f-repeats").textContent = String(r.repeats);
  $("f-bugs").textContent = `${r.bugsFound} / ${BUG_PAGES.length}`;
  $("f-dups").textContent = String(r.dups);
  $("f-tokens").textContent = r.tokens.toLocaleString("en-US");
  $("f-mem").textContent = run.useMem ? `${run.mem.items.size}${run.capacity ? " / " + run.capacity : ""}` : "—";
  $("f-note").textContent = run.stopped ? "The agent stopped: every page its memory knows of is visited." :
    run.done ? "Budget used up." : "";
}

function config() {
  const cap = $("capacity").value;
  return {
    strategy: $("strategy").value,
    capacity: cap === "" ? null : Number(cap),
    policy: $("policy").value,
    seed: Math.trunc(Number($("seed").value) || 0),
    budget: BUDGET,
  };
}

function reset() {
  pause();
  run = new Run(config());
  drawState();
}
function step() {
  if (!run.step()) pause();
  drawState();
}
function pause() {
  clearInterval(timer);
  timer = null;
  $("play").textContent = "Play";
}
function play() {
  if (timer) return pause();
  if (run.done) reset();
  $("play").textContent = "Pause";
  timer = setInterval(step, 1000 / Number($("speed").value));
}

function runBatch() {
  const cfg = config();
  delete cfg.seed;
  const mine = batch(cfg);
  const base = batch({ strategy: "random", budget: BUDGET });
  const d = pairedDiff(mine, base, "coverage");
  const mean = (rs, k) => meanCI(rs.map((r) => r[k])).mean;
  $("batch-cov").textContent = pct(mean(mine, "coverage")) + "%";
  $("batch-base").textContent = pct(mean(base, "coverage")) + "%";
  $("batch-diff").textContent = pct(d.mean, true);
  $("batch-ci").textContent = `[${pct(d.lo, true)}, ${pct(d.hi, true)}]`;
  $("batch-wins").textContent = `${d.wins}/${d.n}`;
  $("batch-tokens").textContent = Math.round(mean(mine, "tokens")).toLocaleString("en-US");
  $("batch-base-tokens").textContent = Math.round(mean(base, "tokens")).toLocaleString("en-US");
  $("batch-dups").textContent = mean(mine, "dups").toFixed(2);
  $("batch-base-dups").textContent = mean(base, "dups").toFixed(2);
}

// ---- exercises: graded by running the engine ---------------------------------------------------
const meanCoverage = (cfg) => meanCI(batch(cfg).map((r) => r.coverage)).mean;
const CHECKS = {
  ex1() {
    const pick = document.querySelector('input[name="ex1"]:checked')?.value;
    if (!pick) return [null, "Choose a policy first."];
    const cov = Object.fromEntries(["fifo", "lru", "random"].map((p) =>
      [p, meanCoverage({ strategy: "frontier", capacity: 12, policy: p })]));
    const best = Object.keys(cov).reduce((a, b) => (cov[b] > cov[a] ? b : a));
    const detail = Object.entries(cov).map(([p, c]) => `${p} ${pct(c)}%`).join(", ");
    return [pick === best, `${best} wins (${detail}).`];
  },
  ex2() {
    const v = Number($("ex2-answer").value);
    if (!v) return [null, "Enter a number."];
    const seen = new Set(runSim({ strategy: "random", seed: 1000 }).path).size;
    return [v === seen, `It sees ${seen} of ${PAGES.length}.`];
  },
  ex3() {
    const pick = document.querySelector('input[name="ex3"]:checked')?.value;
    if (!pick) return [null, "Choose yes or no."];
    const tok = (s) => meanCI(batch({ strategy: s }).map((r) => r.tokens)).mean;
    const more = tok("frontier") > tok("random");
    return [(pick === "yes") === more, `${more ? "Yes" : "No"}: ${Math.round(tok("frontier")).toLocaleString("en-US")} vs ${Math.round(tok("random")).toLocaleString("en-US")} — but compare the cost per bug found.`];
  },
};

function check(id) {
  const [ok, why] = CHECKS[id]();
  const v = $(`${id}-verdict`);
  v.className = "verdict " + (ok === null ? "" : ok ? "ok" : "bad");
  v.textContent = (ok === null ? "" : ok ? "Correct. " : "Not quite. ") + why;
}

function init() {
  for (let c = 4; c <= 24; c++) $("capacity").append(new Option(String(c), String(c)));
  for (const id of ["strategy", "capacity", "policy", "seed"]) $(id).addEventListener("change", reset);
  $("step").addEventListener("click", step);
  $("play").addEventListener("click", play);
  $("reset").addEventListener("click", reset);
  $("batch").addEventListener("click", runBatch);
  $("speed").addEventListener("input", () => { if (timer) { pause(); play(); } });
  document.querySelectorAll("[data-check]").forEach((b) => b.addEventListener("click", () => check(b.dataset.check)));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k === "s") step();
    else if (k === " ") { e.preventDefault(); play(); }
    else if (k === "r") reset();
    else if (k === "b") runBatch();
  });
  run = new Run(config());
  drawGraph();
  document.body.dataset.ready = "1";
}
init();
