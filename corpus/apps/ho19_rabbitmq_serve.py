"""Run RabbitMQ (Debian's 3.10 server) with the checkout's management UI, on loopback only.

Usage: ho19_rabbitmq_serve.py ROOT PORT            serve the node; the management UI on 127.0.0.1:PORT
       ho19_rabbitmq_serve.py ROOT PORT --seed DEFS   fresh node state: boot once with the definitions
                                                     file DEFS loaded, publish the messages it lists
                                                     under "corpus_messages", stop; the next serve
                                                     boots from that state

Debian's server and plugins are used as installed, except the management plugin's static web UI
(priv/www), which comes from the checkout (deps/rabbitmq_management at the same version), so the
build's injections are what the browser runs. Everything else lives in ROOT/.corpus-rmq: a plugins
folder of links, the configuration, the Erlang cookie's home and the node's data. Every listener
(management, AMQP, Erlang distribution, a private epmd) binds 127.0.0.1; AMQP and distribution ports
are picked free at each start. Nothing is sent anywhere else.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

VERSION = "3.10.8"
DEBIAN_LIB = Path(f"/usr/lib/rabbitmq/lib/rabbitmq_server-{VERSION}")
SERVER = Path("/usr/lib/rabbitmq/bin/rabbitmq-server")
NODE = "ho19rmq@localhost"
BOOT_SECONDS = 240


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def prepare(root: Path, port: int, definitions: Path | None) -> tuple[dict[str, str], int]:
    """Write the plugins folder, configuration and environment; return (env, epmd port)."""
    if not SERVER.exists():
        sys.exit(f"{SERVER} is missing: apt-get install rabbitmq-server (Debian's {VERSION})")
    base = root / ".corpus-rmq"
    plugins = base / "plugins"
    if plugins.exists():
        shutil.rmtree(plugins)
    plugins.mkdir(parents=True)
    for entry in (DEBIAN_LIB / "plugins").iterdir():
        if entry.name != f"rabbitmq_management-{VERSION}":
            (plugins / entry.name).symlink_to(entry)
    mgmt = plugins / f"rabbitmq_management-{VERSION}"
    (mgmt / "priv").mkdir(parents=True)
    debian_mgmt = DEBIAN_LIB / "plugins" / f"rabbitmq_management-{VERSION}"
    for name in ("ebin", "include"):
        (mgmt / name).symlink_to(debian_mgmt / name)
    (mgmt / "priv" / "schema").symlink_to(debian_mgmt / "priv" / "schema")
    (mgmt / "priv" / "www").symlink_to(root / "deps" / "rabbitmq_management" / "priv" / "www")
    home = base / "home"
    home.mkdir(exist_ok=True)
    cookie = home / ".erlang.cookie"
    if not cookie.exists():
        cookie.write_text("CORPUSHO19RABBITMQCOOKIE")
    cookie.chmod(0o400)
    (base / "enabled_plugins").write_text("[rabbitmq_management].\n")
    conf = [
        f"listeners.tcp.default = 127.0.0.1:{free_port()}",
        "management.tcp.ip = 127.0.0.1",
        f"management.tcp.port = {port}",
        "loopback_users = none",
        "disk_free_limit.absolute = 1MB",
        "vm_memory_high_watermark.relative = 0.8",
        "collect_statistics_interval = 2000",
        "log.console = true",
        "log.console.level = warning",
        "log.file = false",
    ]
    if definitions is not None:
        conf.append(f"load_definitions = {definitions}")
    (base / "rabbitmq.conf").write_text("\n".join(conf) + "\n")
    epmd_port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RABBITMQ_")}
    env.update(
        HOME=str(home),
        RABBITMQ_NODENAME=NODE,
        RABBITMQ_USE_LONGNAME="false",
        RABBITMQ_CONFIG_FILE=str(base / "rabbitmq.conf"),
        RABBITMQ_ENABLED_PLUGINS_FILE=str(base / "enabled_plugins"),
        RABBITMQ_PLUGINS_DIR=str(plugins),
        RABBITMQ_MNESIA_BASE=str(base / "data"),
        RABBITMQ_LOG_BASE=str(base / "log"),
        RABBITMQ_PID_FILE=str(base / "rabbit.pid"),
        RABBITMQ_DIST_PORT=str(free_port()),
        RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}",
        ERL_EPMD_PORT=str(epmd_port),
        ERL_EPMD_ADDRESS="127.0.0.1",
    )
    return env, epmd_port


def start(env: dict[str, str], epmd_port: int) -> tuple[subprocess.Popen[bytes], subprocess.Popen[bytes]]:
    epmd = subprocess.Popen(["epmd", "-address", "127.0.0.1", "-port", str(epmd_port)], env=env)
    time.sleep(0.5)
    server = subprocess.Popen([str(SERVER)], env=env)
    return epmd, server


def api(port: int, method: str, path: str, body: object | None = None) -> object:
    token = base64.b64encode(b"admin:corpus-admin-pw").decode()
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/{path}",
        data=data,
        method=method,
        headers={"Authorization": f"Basic {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
    return json.loads(text) if text else None


def wait_up(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + BOOT_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"rabbitmq-server exited with {server.returncode} while booting")
        try:
            api(port, "GET", "overview")
            return
        except (urllib.error.URLError, OSError, ValueError):
            time.sleep(1)
    sys.exit(f"the management API did not answer within {BOOT_SECONDS} s")


def stop(epmd: subprocess.Popen[bytes], server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=90)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    # epmd does not stop on SIGTERM (`epmd -kill` is its way); it keeps no state, so it is killed
    epmd.kill()
    epmd.wait()


def seed(root: Path, port: int, definitions: Path) -> None:
    data = root / ".corpus-rmq" / "data"
    if data.exists():
        shutil.rmtree(data)
    env, epmd_port = prepare(root, port, definitions)
    epmd, server = start(env, epmd_port)
    try:
        wait_up(port, server)
        wanted = json.loads(definitions.read_text())
        # the definitions are imported while the node boots: publish once every queue is there
        deadline = time.monotonic() + BOOT_SECONDS
        while True:
            listed = api(port, "GET", "queues?columns=name,state")
            if isinstance(listed, list) and len(listed) >= len(wanted.get("queues", [])):
                if all(queue.get("state") in ("running", "live") for queue in listed):
                    break
            if time.monotonic() > deadline:
                sys.exit("the definitions' queues did not all come up")
            time.sleep(1)
        messages = wanted.get("corpus_messages", [])
        for message in messages:
            vhost = urllib.parse.quote(message["vhost"], safe="")
            body = {
                "properties": {"delivery_mode": 2, **message.get("properties", {})},
                "routing_key": message["queue"],
                "payload": message["payload"],
                "payload_encoding": "string",
            }
            routed = api(port, "POST", f"exchanges/{vhost}/amq.default/publish", body)
            if not isinstance(routed, dict) or not routed.get("routed"):
                sys.exit(f"message to {message['queue']} was not routed")
        print(f"seeded {len(messages)} messages", flush=True)
    finally:
        stop(epmd, server)
    # the next start boots from the stored state: no definitions import over it
    prepare(root, port, None)


def serve(root: Path, port: int) -> None:
    env, epmd_port = prepare(root, port, None)
    epmd, server = start(env, epmd_port)

    def finish(signum: int, frame: object) -> None:
        # only pass the signal on: the main thread is inside server.wait(), which holds the Popen's
        # wait lock, so waiting here too would never return
        if server.returncode is None:
            server.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    code = server.wait()
    epmd.kill()
    epmd.wait()
    sys.exit(code)


def main() -> None:
    if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and sys.argv[3] != "--seed"):
        sys.exit(__doc__)
    root, port = Path(sys.argv[1]).resolve(), int(sys.argv[2])
    if len(sys.argv) == 5:
        seed(root, port, Path(sys.argv[4]).resolve())
    else:
        serve(root, port)


if __name__ == "__main__":
    main()
