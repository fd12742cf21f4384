"""Serve JupyterHub for the corpus: `python ho9_jupyterhub_serve.py ROOT PORT [--build-only]` (the seed
runs it too: first with --build-only, then for the hub it fills through the API). First brings the
React admin panel's bundle in line with the sources under `jsx/src` (setup built the clean ones; an
injected bug or the reset back to the clean build changes them), so the corpus's start finds it
done. Then picks free loopback ports for the hub and the
proxy's API, starts the proxy (configurable-http-proxy) on PORT with the hub as its default target,
and execs `jupyterhub -f ho9_jupyterhub_config.py` from the app's virtualenv, which uses that proxy
rather than starting its own: a proxy the hub starts answers 404 until the hub has added its route,
which a readiness check takes for an answer; with the hub as default target it answers 503 until
the hub is up."""

import hashlib
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

root = Path(sys.argv[1]).resolve()
port = sys.argv[2]


def free_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return str(sock.getsockname()[1])


def build_admin_panel() -> None:
    """Rebuild the React admin panel when its sources changed; bundles are kept by a hash of the
    sources (`.corpus-jsx-cache/`, untracked like the virtualenv), so switching between the clean
    and the buggy build costs one webpack run each, once."""
    jsx = root / "jsx"
    bundle = root / "share" / "jupyterhub" / "static" / "js" / "admin-react.js"
    digest = hashlib.sha256()
    for path in sorted((jsx / "src").rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(jsx).as_posix().encode() + b"\0" + path.read_bytes())
    cached = root / ".corpus-jsx-cache" / f"{digest.hexdigest()}.js"
    if not cached.exists():
        subprocess.run(["npm", "run", "build"], cwd=jsx, check=True, stdout=subprocess.DEVNULL)
        cached.parent.mkdir(exist_ok=True)
        shutil.copyfile(bundle, cached)
    elif not bundle.exists() or bundle.read_bytes() != cached.read_bytes():
        shutil.copyfile(cached, bundle)


build_admin_panel()
if "--build-only" in sys.argv[3:]:
    sys.exit(0)

hub_port, api_port = free_port(), free_port()
env = dict(os.environ)
env.update(
    CORPUS_ROOT=str(root),
    CORPUS_PORT=port,
    CORPUS_HUB_PORT=hub_port,
    CORPUS_PROXY_API_PORT=api_port,
    CONFIGPROXY_AUTH_TOKEN=os.urandom(16).hex(),
)
hub_url = f"http://127.0.0.1:{hub_port}"
subprocess.Popen(
    [
        str(root / ".corpus-chp" / "node_modules" / ".bin" / "configurable-http-proxy"),
        "--ip",
        "127.0.0.1",
        "--port",
        port,
        "--api-ip",
        "127.0.0.1",
        "--api-port",
        api_port,
        "--default-target",
        hub_url,
        "--error-target",
        f"{hub_url}/hub/error",
        "--log-level",
        "warn",
    ],
    env=env,
)
config = Path(__file__).with_name("ho9_jupyterhub_config.py")
hub = root / ".corpus-venv" / "bin" / "jupyterhub"
os.chdir(root)
os.execve(str(hub), [str(hub), "-f", str(config)], env)
