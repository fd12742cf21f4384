"""Seed `node_red`: rebuild the editor's script from the checkout, and write a fresh user folder.

Usage: node_red_seed.py ROOT. ROOT is the checkout's `packages/node_modules/@node-red/editor-client/src/js`
(a sparse checkout); the released Node-RED runs from `ROOT/.corpus-npm` (`setup`).

- The editor's `red.js` is the release's build step redone: the source files the repository's
  Gruntfile concatenates (in its order, globs sorted as grunt expands them, joined by ";") — for the
  clean build byte for byte the `public/red/red.js` npm ships (checked at 4.1.1) — written over the
  installed editor's copy, which the server serves with NODE_ENV=development (the app file's `env`).
- `.corpus-data/` gets settings.js (bind 127.0.0.1, adminAuth with one user whose password is kept as
  bcrypt, as Node-RED asks; no palette catalogue, no tours, no telemetry or update check) and
  flows.json: 8 flow tabs of 14–22 nodes each (inject, change, switch, function, template, delay,
  debug, comment), two subflows, groups, and descriptions in Markdown on flows and nodes — one flow's
  description pasting an `<img onerror>`, one (the last) with none. No node talks to the network; no
  inject fires on its own.
- Three small node modules of our own in the user folder (`node-red-contrib-corpus-*`, one node each),
  listed in its package.json as npm would: "Manage palette" lists them as installed, each with a
  Remove button (npm is told to stay offline: `.npmrc`).
"""

from __future__ import annotations

import glob
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

USERNAME = "admin"
PASSWORD = "corpus-admin-pw"  # throwaway, the app file's [login]
AREAS = ["Kitchen", "Garage", "Garden", "Office", "Cellar", "Attic", "Porch", "Workshop"]
KINDS = ["temperature", "humidity", "door", "motion", "power", "light", "water", "smoke"]


def bundle(root: Path, installed: Path) -> None:
    repo = Path(
        subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    grunt = subprocess.run(
        ["git", "-C", str(repo), "show", "HEAD:Gruntfile.js"], capture_output=True, text=True, check=True
    ).stdout
    block = grunt[grunt.index("concat: {") :]
    block = block[block.index("build: {") : block.index("dest:")]
    files: list[str] = []
    for pattern in re.findall(r'^\s*"([^"]+\.js)"', block, re.M):
        for name in sorted(glob.glob(str(repo / pattern))) if "*" in pattern else [str(repo / pattern)]:
            if name not in files:
                files.append(name)
    text = ";".join(Path(name).read_text(encoding="utf-8") for name in files)
    (installed / "public" / "red" / "red.js").write_text(text, encoding="utf-8")


def node(kind: str, tab: str, n: int, x: int, y: int, **extra: object) -> dict[str, object]:
    return {"id": f"{tab}-{kind}-{n}", "type": kind, "z": tab, "x": x, "y": y, "wires": [[]], **extra}


def flows() -> list[dict[str, object]]:
    rng = random.Random(33)
    out: list[dict[str, object]] = []
    for t, area in enumerate(AREAS):
        tab = f"tab{t + 1:02d}"
        info = f"Sensors of the **{area.lower()}**: readings, thresholds and alerts.\n\n- owner: ops\n- reviewed: 2026-11"
        if area == "Porch":
            info = "Porch sensors. Pasted from the wiki: <img src=x onerror=\"alert('nr-xss')\">"
        flow = {"id": tab, "type": "tab", "label": f"{area} sensors", "disabled": False, "info": info}
        if area == AREAS[-1]:
            del flow["info"]  # a flow nobody described
        out.append(flow)
        count = 14 + (t * 3) % 9
        for i in range(count):
            kind = KINDS[(t + i) % len(KINDS)]
            y = 60 + (i % 7) * 60
            x = 160 + (i // 7) * 260
            name = f"{area} {kind} {i + 1}"
            match i % 7:
                case 0:
                    out.append(
                        node(
                            "inject",
                            tab,
                            i,
                            x,
                            y,
                            name=name,
                            props=[{"p": "payload"}],
                            repeat="",
                            once=False,
                            payload=str(rng.randint(1, 99)),
                            payloadType="num",
                            topic=kind,
                        )
                    )
                case 1:
                    out.append(
                        node(
                            "change",
                            tab,
                            i,
                            x,
                            y,
                            name=name,
                            rules=[{"t": "set", "p": "topic", "pt": "msg", "to": kind, "tot": "str"}],
                        )
                    )
                case 2:
                    out.append(
                        node(
                            "switch",
                            tab,
                            i,
                            x,
                            y,
                            name=name,
                            property="payload",
                            propertyType="msg",
                            rules=[{"t": "gt", "v": "50", "vt": "num"}, {"t": "else"}],
                            checkall="true",
                            outputs=2,
                            wires=[[], []],
                        )
                    )
                case 3:
                    out.append(
                        node(
                            "function",
                            tab,
                            i,
                            x,
                            y,
                            name=name,
                            func=f"// {name}\nmsg.payload = Number(msg.payload) * 1.8 + 32;\nreturn msg;",
                            outputs=1,
                            info=f"Converts the {kind} reading of the {area.lower()}.",
                        )
                    )
                case 4:
                    out.append(
                        node(
                            "template",
                            tab,
                            i,
                            x,
                            y,
                            name=name,
                            field="payload",
                            fieldType="msg",
                            format="handlebars",
                            syntax="mustache",
                            template=f"{area}: {{{{payload}}}}",
                            output="str",
                        )
                    )
                case 5:
                    out.append(
                        node(
                            "delay",
                            tab,
                            i,
                            x,
                            y,
                            name=name,
                            pauseType="delay",
                            timeout="5",
                            timeoutUnits="seconds",
                            rate="1",
                            nbRateUnits="1",
                            rateUnits="second",
                            randomFirst="1",
                            randomLast="5",
                            randomUnits="seconds",
                            drop=False,
                        )
                    )
                case _:
                    out.append(
                        node(
                            "debug",
                            tab,
                            i,
                            x,
                            y,
                            name=name,
                            active=False,
                            tosidebar=True,
                            console=False,
                            complete="payload",
                            wires=[],
                        )
                    )
        out.append(
            {
                "id": f"{tab}-note",
                "type": "comment",
                "z": tab,
                "name": f"{area}: read me",
                "info": f"Alerts of the {area.lower()} go to the ops channel.",
                "x": 700,
                "y": 40,
                "wires": [],
            }
        )
        members = [f"{tab}-inject-0", f"{tab}-change-1"]
        out.append(
            {
                "id": f"{tab}-group",
                "type": "group",
                "z": tab,
                "name": f"{area} intake",
                "style": {"label": True},
                "nodes": members,
                "x": 54,
                "y": 19,
                "w": 452,
                "h": 142,
            }
        )
        for item in out:
            if item.get("id") in members:
                item["g"] = f"{tab}-group"
    for s, label in enumerate(["Average of readings", "Alert throttle"]):
        sub = f"sub{s + 1}"
        out.append(
            {
                "id": sub,
                "type": "subflow",
                "name": label,
                "info": f"{label}: used by several flows.",
                "in": [{"x": 60, "y": 80, "wires": [{"id": f"{sub}-fn"}]}],
                "out": [{"x": 420, "y": 80, "wires": [{"id": f"{sub}-fn", "port": 0}]}],
            }
        )
        out.append(
            {
                "id": f"{sub}-fn",
                "type": "function",
                "z": sub,
                "name": label,
                "func": "return msg;",
                "outputs": 1,
                "x": 240,
                "y": 80,
                "wires": [[]],
            }
        )
        for t in range(0, len(AREAS), 2 + s):
            out.append(
                {
                    "id": f"tab{t + 1:02d}-use-{sub}",
                    "type": f"subflow:{sub}",
                    "z": f"tab{t + 1:02d}",
                    "name": "",
                    "x": 700,
                    "y": 300 + 60 * s,
                    "wires": [[]],
                }
            )
    return out


MODULES = {"clock": "Emits the time of day.", "counter": "Counts messages.", "notes": "Keeps a note."}


def modules(data: Path) -> None:
    deps = {}
    for short, help_text in MODULES.items():
        name, kind = f"node-red-contrib-corpus-{short}", f"corpus-{short}"
        folder = data / "node_modules" / name
        folder.mkdir(parents=True)
        package = {
            "name": name,
            "version": "1.0.0",
            "description": help_text,
            "keywords": ["node-red"],
            "node-red": {"nodes": {kind: f"{short}.js"}},
        }
        (folder / "package.json").write_text(json.dumps(package, indent=1), encoding="utf-8")
        (folder / f"{short}.js").write_text(
            "module.exports = function (RED) {\n"
            f"    function Node(config) {{ RED.nodes.createNode(this, config); this.on('input', (msg, send, done) => {{ send(msg); done(); }}); }}\n"
            f"    RED.nodes.registerType({json.dumps(kind)}, Node);\n}};\n",
            encoding="utf-8",
        )
        (folder / f"{short}.html").write_text(
            '<script type="text/javascript">\n'
            f"RED.nodes.registerType({json.dumps(kind)}, {{category: 'function', color: '#a6bbcf', defaults: {{name: {{value: ''}}}},"
            f" inputs: 1, outputs: 1, label: function () {{ return this.name || {json.dumps(kind)}; }}}});\n</script>\n"
            f'<script type="text/html" data-template-name="{kind}"><div class="form-row"><label for="node-input-name">Name</label>'
            '<input type="text" id="node-input-name"></div></script>\n'
            f'<script type="text/html" data-help-name="{kind}"><p>{help_text}</p></script>\n',
            encoding="utf-8",
        )
        deps[name] = "1.0.0"
    (data / "package.json").write_text(
        json.dumps(
            {"name": "node-red-project", "version": "0.0.1", "private": True, "dependencies": deps}, indent=1
        ),
        encoding="utf-8",
    )
    (data / ".npmrc").write_text(
        "offline=true\naudit=false\nfund=false\nupdate-notifier=false\n", encoding="utf-8"
    )


def settings(data: Path, digest: str) -> str:
    return f"""module.exports = {{
    uiHost: "127.0.0.1",
    userDir: {json.dumps(str(data))},
    flowFile: "flows.json",
    credentialSecret: "corpus-not-a-secret",
    adminAuth: {{ type: "credentials", users: [{{ username: {json.dumps(USERNAME)}, password: {json.dumps(digest)}, permissions: "*" }}] }},
    logging: {{ console: {{ level: "warn", metrics: false, audit: false }} }},
    externalModules: {{ modules: {{ allowInstall: false }} }},
    editorTheme: {{ tours: false, projects: {{ enabled: false }}, palette: {{ catalogues: [] }}, multiplayer: {{ enabled: false }} }},
    diagnostics: {{ enabled: false }},
    runtimeState: {{ enabled: false }},
    telemetry: {{ enabled: false }},
}};
"""


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    npm = root / ".corpus-npm" / "node_modules"
    bundle(root, npm / "@node-red" / "editor-client")
    digest = subprocess.run(
        [
            "node",
            "-e",
            "process.stdout.write(require(process.argv[1]).hashSync(process.argv[2], 8))",
            str(npm / "bcryptjs"),
            PASSWORD,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data = root / ".corpus-data"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir()
    (data / "settings.js").write_text(settings(data, digest), encoding="utf-8")
    (data / "flows.json").write_text(json.dumps(flows(), indent=1), encoding="utf-8")
    modules(data)


if __name__ == "__main__":
    main()
