"""JupyterHub configuration for the corpus (read by `jupyterhub -f`; `c` is JupyterHub's config object).

Everything on loopback: the proxy (configurable-http-proxy, from npm, started by
`ho9_jupyterhub_serve.py`) listens on the corpus's port, the hub and the proxy's API on free ports
the serve script picks. Users log in with the
dummy authenticator's shared password; alice is the one admin. Single-user servers are JupyterHub's
own mock server (`jupyterhub.tests.mocksu`, a few lines of Tornado), so Start works offline with no
Jupyter installed. Pages list 20 records (the default is 50), so the 70 users and 26 groups this file
loads take four and two pages."""

import os
import sys

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (JupyterHub's config loader provides it)

root = os.environ["CORPUS_ROOT"]
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = int(os.environ["CORPUS_PORT"])
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ["CORPUS_HUB_PORT"])
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{os.environ['CORPUS_PROXY_API_PORT']}"
# started by ho9_jupyterhub_serve.py (see there why), reached with the token it shares through the env
c.ConfigurableHTTPProxy.should_start = False
c.ConfigurableHTTPProxy.auth_token = os.environ["CONFIGPROXY_AUTH_TOKEN"]
c.JupyterHub.db_url = f"sqlite:///{root}/corpus-jupyterhub.sqlite"
c.JupyterHub.cookie_secret = bytes.fromhex("c0" * 32)
c.JupyterHub.pid_file = f"{root}/corpus-jupyterhub.pid"
c.JupyterHub.log_level = "WARN"

c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = "corpus-alice-pw"
c.Authenticator.admin_users = {"alice"}
c.Authenticator.allow_all = True

# The seeded people and groups, loaded at every start (the database is fresh each time: the hub
# creates the users, the groups, their members and properties itself; the seed adds the rest).
FIRST = [
    "amir",
    "bea",
    "chen",
    "dara",
    "emil",
    "fatou",
    "gita",
    "hugo",
    "ines",
    "jon",
    "kemal",
    "lena",
    "milo",
]
LAST = ["berg", "costa", "diaz", "eklund", "fischer", "garcia", "holm", "ito", "jansen", "kovac"]
colleagues = [
    f"{FIRST[i % len(FIRST)]}-{LAST[(i * 7) % len(LAST)]}{i // len(FIRST) or ''}" for i in range(69)
]
c.Authenticator.allowed_users = {"alice", *colleagues}
COURSES = [
    "algebra",
    "biology",
    "chemistry",
    "databases",
    "ecology",
    "finance",
    "geology",
    "history",
    "imaging",
]
groups = {}
for index in range(26):
    members = [colleagues[(index * 5 + k) % len(colleagues)] for k in range(2 + index % 4)]
    if index % 3 == 0:
        members.append("alice")
    properties = {"course": f"C{100 + index}", "room": f"R{index % 7 + 1}.{10 + index}"}
    if index % 2 == 0:
        properties["term"] = ["autumn", "spring"][index % 4 // 2]
    groups[f"{COURSES[index % len(COURSES)]}-{2024 + index // len(COURSES)}"] = {
        "users": members,
        "properties": properties,
    }
c.JupyterHub.load_groups = groups

# a login lands on the home page (the default sends it on to spawn the default server)
c.JupyterHub.default_url = "/hub/home"
c.JupyterHub.allow_named_servers = True
c.JupyterHub.named_server_limit_per_user = 10
c.JupyterHub.api_page_default_limit = 20
c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
c.SimpleLocalProcessSpawner.home_dir_template = f"{root}/corpus-homes/{{username}}"
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.tests.mocksu"]
c.Spawner.start_timeout = 30
c.Spawner.http_timeout = 30

# the seed's key to the REST API (only used while seeding: the hub the seed starts and stops)
c.JupyterHub.services = [{"name": "corpus-seed", "api_token": "corpus-seed-token-0123456789abcdef"}]
c.JupyterHub.load_roles = [
    {
        "name": "corpus-seed",
        "scopes": ["admin:users", "admin:groups", "admin:servers", "tokens", "admin:auth_state"],
        "services": ["corpus-seed"],
    }
]
