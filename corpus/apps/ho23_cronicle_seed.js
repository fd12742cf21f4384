// Seed for ho23_cronicle: a fresh Cronicle storage (`data/`) and no logs, before every start.
// Run as `node ho23_cronicle_seed.js ROOT` (ROOT: the checkout, after `npm ci` and `bin/build.js dev`).
// It does what `bin/control.sh setup` does (sample_conf/setup.json's storage steps, through the app's
// own storage module) less the HTTP Request plugin (so no job of the seed's can call another host),
// with the admin's password set and an avatar of the site's own (not Gravatar); then, straight into storage, 40 more users, five API keys, five
// categories, 30 shell-script events (four disabled), 96 completed jobs with their logs (most with CPU
// and memory samples, a few quick ones without; one failed job whose plugin's error text pasted an
// <img onerror>), the activity log, and the scheduler switched off, so nothing runs by itself.
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const zlib = require("zlib");

const root = path.resolve(process.argv[2] || ".");
process.chdir(root);
const need = (name) => require(path.join(root, "node_modules", name));
const StandaloneStorage = need("pixl-server-storage/standalone");
const bcrypt = need("bcrypt-node");
const async = need("async");

const ADMIN_PASSWORD = "corpus-admin-pw";
const config = JSON.parse(fs.readFileSync("sample_conf/config.json", "utf8"));
const setup = JSON.parse(fs.readFileSync("sample_conf/setup.json", "utf8"));
config.Storage.log_event_types = {};
config.Storage.transactions = false;

fs.rmSync("data", { recursive: true, force: true });
fs.rmSync("logs", { recursive: true, force: true });
fs.mkdirSync("logs/jobs", { recursive: true });

const hostname = (process.env.HOSTNAME || os.hostname()).toLowerCase();
const now = Math.floor(Date.now() / 1000);
const base = now - 14 * 86400;
const salt = "corpus-salt";
const hash = (password) => bcrypt.hashSync(password + salt);
const escapeRe = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const steps = [];
const step = (func, ...args) => steps.push([func, ...args]);

for (const [func, key, value] of setup.storage) {
  if (value && value.id === "urlplug") continue;
  const item = value && typeof value === "object" ? { ...value } : value;
  if (item && typeof item === "object") {
    if (item.created) item.created = base;
    if (item.modified) item.modified = base;
    if (item.regexp === "_HOSTNAME_") item.regexp = "^(" + escapeRe(hostname) + ")$";
    if (item.hostname === "_HOSTNAME_") item.hostname = hostname;
    if (item.ip === "_IP_") item.ip = "127.0.0.1";
    if (key === "users/admin") {
      item.salt = salt;
      item.password = hash(ADMIN_PASSWORD);
      // the web client draws every user's picture from the logged-in user's own avatar, else from
      // Gravatar: a picture of the site's own keeps the pages from asking another host
      item.avatar = "/images/logo-128.png";
    }
  }
  step(func, key, item);
}

const FIRST = ["ada", "bela", "cora", "dan", "emil", "fritz", "greta", "hugo", "ines", "jonas"];
const LAST = ["berg", "holm", "lind", "strand"];
const memberHash = hash("corpus-member-pw");
for (let n = 0; n < 40; n++) {
  const first = FIRST[n % FIRST.length];
  const last = LAST[n % LAST.length];
  const username = `${first}${last}${n}`;
  step("put", "users/" + username, {
    username, password: memberHash, salt, full_name: `${first[0].toUpperCase()}${first.slice(1)} ${last[0].toUpperCase()}${last.slice(1)}`,
    email: `${username}@example.org`, active: n % 9 === 4 ? 0 : 1, created: base + n * 600, modified: base + n * 600,
    privileges: { admin: 0, create_events: 1, edit_events: 1, delete_events: n % 2, run_events: 0, abort_events: 0, state_update: 0 },
  });
  step("listPush", "global/users", { username });
}

const KEYS = ["Deploy hook", "Nightly report", "Backup monitor", "Chat bot", "Status page"];
KEYS.forEach((title, n) => {
  step("listPush", "global/api_keys", {
    id: `k${n + 1}corpus`, key: `corpus${n + 1}0123456789abcdef0123456789abcdef`.slice(0, 32), active: 1, title,
    description: `Used by the ${title.toLowerCase()}.`, username: "admin", created: base + n * 3600, modified: base + n * 3600,
    privileges: { admin: 0, create_events: 0, edit_events: 0, delete_events: 0, run_events: n % 2, abort_events: 0, state_update: 0 },
  });
});

const CATS = [["backups", "Backups", "Copies of the databases and file stores."], ["reports", "Reports", "Daily and weekly reports."],
  ["cleanup", "Cleanup", "Rotating logs and clearing caches."], ["sync", "Sync", "Mirrors between sites."]];
CATS.forEach(([id, title, description], n) => {
  step("listPush", "global/categories", { id, title, description, enabled: 1, username: "admin", created: base, modified: base, max_children: n % 2 ? 2 : 0, color: ["", "blue", "green", "purple"][n] });
});

const NAMES = ["Database dump", "Mail queue report", "Log rotation", "Mirror sync", "Cache purge", "Disk usage report",
  "Index rebuild", "Photo archive copy", "Invoice export", "Session cleanup"];
const events = [];
for (let n = 0; n < 30; n++) {
  const cat = ["general", ...CATS.map((c) => c[0])][n % 5];
  const event = {
    id: `ev${(n + 1).toString().padStart(2, "0")}corpus`, title: `${NAMES[n % NAMES.length]} ${Math.floor(n / NAMES.length) + 1}`,
    enabled: n % 8 === 5 ? 0 : 1, category: cat, target: "allgrp", plugin: n % 6 === 3 ? "testplug" : "shellplug",
    params: n % 6 === 3 ? { duration: 5, progress: 1, burn: 0, action: "Success", secret: "" }
      : { script: `#!/bin/sh\necho "${NAMES[n % NAMES.length].toLowerCase()} done"\n`, annotate: 0, json: 0 },
    timing: { hours: [n % 24], minutes: [(n * 7) % 60] }, max_children: 1, timeout: 3600, catch_up: 0, queue_max: 1000,
    timezone: "UTC", notes: n % 3 === 0 ? `Owner: ops team. Runbook section ${n + 1}.` : "",
    username: "admin", created: base + n * 60, modified: base + n * 60, retries: 0, retry_delay: 0, detached: 0,
    notify_success: "", notify_fail: "", web_hook: "", cpu_limit: 0, cpu_sustain: 0, memory_limit: 0, memory_sustain: 0, log_max_size: 0,
  };
  events.push(event);
  step("listPush", "global/schedule", event);
}

const catTitle = Object.fromEntries([["general", "General"], ...CATS.map((c) => [c[0], c[1]])]);
const jobs = [];
const jobCodes = {};
let failed = 0;
for (let n = 0; n < 96; n++) {
  const event = events[(n * 7) % events.length];
  const start = base + n * 3500 + 17;
  const elapsed = 3 + ((n * 13) % 50);
  const code = n % 11 === 7 || n === 90 ? 1 : 0;
  const job = {
    id: `jb${(n + 1).toString().padStart(3, "0")}corpus`, event: event.id, event_title: event.title, category: event.category,
    category_title: catTitle[event.category], plugin: event.plugin, plugin_title: event.plugin === "shellplug" ? "Shell Script" : "Test Plugin",
    target: "allgrp", nice_target: "All Servers", hostname, source: n % 4 ? "Scheduler" : "Manual (admin)", params: event.params,
    timeout: 3600, catch_up: 0, queue_max: 1000, timezone: "UTC", notes: event.notes,
    command: event.plugin === "shellplug" ? "bin/shell-plugin.js" : "bin/test-plugin.js", now: start, time_start: start,
    time_end: start + elapsed, elapsed, pid: 20000 + n, complete: 1, code, log_file_size: 180 + n,
    description: code ? "Script exited with code: 1" : "", type: "cronicle_job",
  };
  if (n === 90) job.description = 'Disk check failed on /srv: <img src="x" onerror="window.__ho23_xss=1">';
  // jobs that ran for more than a few seconds carry the CPU and memory samples Cronicle takes every few seconds
  if (elapsed > 6) {
    job.cpu = { min: 1, max: 20 + (n % 30), total: 10 * elapsed, count: elapsed };
    job.mem = { min: 2e6, max: 9e6 + n * 1e5, total: 5e6 * elapsed, count: elapsed };
    job.perf = { scale: 1000, perf: { db: 300 + n, io: 120 + n, total: elapsed * 1000 } };
  }
  if (code) failed++;
  jobCodes[event.id] = code;
  jobs.push(job);
}
for (const job of jobs) {
  const stub = {
    id: job.id, code: job.code, event: job.event, category: job.category, plugin: job.plugin, hostname: job.hostname,
    time_start: job.time_start, elapsed: job.elapsed, perf: job.perf || "", cpu: job.cpu || {}, mem: job.mem || {},
    log_file_size: job.log_file_size, action: "job_complete", epoch: Math.floor(job.time_end),
    event_title: job.event_title, category_title: job.category_title, plugin_title: job.plugin_title,
  };
  if (job.code) stub.description = job.description;
  step("put", "jobs/" + job.id, job);
  step("put", "jobs/" + job.id + "/log.txt.gz", zlib.gzipSync(Buffer.from(`# Job ${job.id} on ${job.hostname}\n${job.event_title}: started\n${job.code ? "error: exit 1" : "done"}\n`)));
  step("listUnshift", "logs/events/" + job.event, stub);
  step("listUnshift", "logs/completed", stub);
  if (job.code) step("listUnshift", "logs/activity", stub);
}
const ACTIONS = ["user_create", "event_create", "event_update", "apikey_create", "cat_create", "user_update"];
for (let n = 0; n < 40; n++) {
  const action = ACTIONS[n % ACTIONS.length];
  const item = { action, username: "admin", ip: "127.0.0.1", headers: {}, epoch: base + n * 8000 };
  if (action.startsWith("user")) item.user = { username: `${FIRST[n % FIRST.length]}${LAST[n % LAST.length]}${n}` };
  if (action.startsWith("event")) item.event = { id: events[n % events.length].id, title: events[n % events.length].title };
  if (action.startsWith("apikey")) item.api_key = { key: "corpus", title: KEYS[n % KEYS.length] };
  if (action.startsWith("cat")) item.cat = { id: CATS[n % CATS.length][0], title: CATS[n % CATS.length][1] };
  step("listUnshift", "logs/activity", item);
}
step("put", "global/state", {
  enabled: false, cursors: {}, flagged_jobs: {}, jobCodes,
  stats: { jobs_completed: jobs.length - failed, jobs_failed: failed },
});

const storage = new StandaloneStorage(config.Storage, (err) => {
  if (err) throw err;
  async.eachSeries(
    steps,
    ([func, ...args], done) => storage[func](...args, done),
    (err) => {
      if (err) throw err;
      storage.shutdown(() => {
        console.log(`seeded ${steps.length} storage steps: 41 users, ${events.length} events, ${jobs.length} jobs (${failed} failed)`);
        process.exit(0);
      });
    },
  );
});
