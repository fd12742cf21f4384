"""Seed the ho19_rabbitmq node: a definitions file of users, vhosts, queues, exchanges, bindings and
policies, plus messages published into some queues, stored by one boot of the node.

Usage: ho19_rabbitmq_seed.py ROOT

Three vhosts ("/", "staging", "billing"); 136 queues (130 in "/": two pages of the UI's 100; six with
"test" in their names), 19 custom exchanges, bindings from them, three policies, four users (the
explorer logs in as admin / corpus-admin-pw, an administrator), and 170 persistent messages spread
over 28 queues. One queue carries an argument a client declared with a pasted <img onerror> in it,
and one binding an argument with another: what a broker's clients can send.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ho19_rabbitmq_serve import free_port, seed  # noqa: E402

SERVICES = [
    "orders",
    "payments",
    "emails",
    "invoices",
    "reports",
    "thumbnails",
    "search",
    "audit",
    "shipping",
    "inventory",
    "notifications",
    "webhooks",
    "exports",
]
EVENTS = ["created", "updated", "cancelled", "retry", "dead", "priority", "bulk", "archive", "sync", "check"]


def definitions() -> dict[str, object]:
    users = [
        {"name": "admin", "password": "corpus-admin-pw", "tags": ["administrator"], "limits": {}},
        {"name": "monitor", "password": "corpus-monitor-pw", "tags": ["monitoring"], "limits": {}},
        {"name": "orders-svc", "password": "corpus-orders-pw", "tags": ["management"], "limits": {}},
        {"name": "billing-app", "password": "corpus-billing-pw", "tags": ["policymaker"], "limits": {}},
    ]
    vhosts = [
        {"name": name, "limits": [], "metadata": {"description": text, "tags": []}}
        for name, text in (
            ("/", "default virtual host"),
            ("staging", "pre-release copies"),
            ("billing", "invoicing and payment runs"),
        )
    ]
    permissions = [
        {"user": user, "vhost": vhost, "configure": ".*", "write": ".*", "read": ".*"}
        for user in ("admin", "monitor")
        for vhost in ("/", "staging", "billing")
    ]
    permissions += [
        {
            "user": "orders-svc",
            "vhost": "/",
            "configure": "^orders\\.",
            "write": "^orders\\.",
            "read": "^orders\\.",
        },
        {"user": "billing-app", "vhost": "billing", "configure": ".*", "write": ".*", "read": ".*"},
    ]
    queues: list[dict[str, object]] = []
    for service in SERVICES:
        for event in EVENTS:
            arguments: dict[str, object] = {}
            if event == "dead":
                arguments = {"x-queue-mode": "lazy"}
            elif event == "retry":
                arguments = {"x-message-ttl": 30000, "x-dead-letter-exchange": f"{service}.dlx"}
            elif event == "priority":
                arguments = {"x-max-priority": 10}
            elif event == "bulk":
                arguments = {"x-max-length": 5000, "x-overflow": "reject-publish"}
            queues.append(
                {
                    "name": f"{service}.{event}",
                    "vhost": "/",
                    "durable": True,
                    "auto_delete": False,
                    "arguments": arguments,
                }
            )
    # what a client library may declare: an extra, non-x argument carrying pasted markup
    queues[0]["arguments"] = {
        "x-message-ttl": 600000,
        "owner": 'team-orders <img src=x onerror="window.__corpus_xss=1">',
    }
    for name in ("test.smoke", "test.load", "canary.test"):
        queues.append(
            {"name": name, "vhost": "staging", "durable": True, "auto_delete": False, "arguments": {}}
        )
    for name in ("invoice.test-run", "payment.runs", "ledger.sync"):
        queues.append(
            {
                "name": name,
                "vhost": "billing",
                "durable": True,
                "auto_delete": False,
                "arguments": {"x-queue-type": "classic"},
            }
        )
    exchanges = []
    bindings = []
    for service in SERVICES:
        exchanges.append(
            {
                "name": f"{service}.events",
                "vhost": "/",
                "type": "topic",
                "durable": True,
                "auto_delete": False,
                "internal": False,
                "arguments": {},
            }
        )
        for event in EVENTS[:4]:
            bindings.append(
                {
                    "source": f"{service}.events",
                    "vhost": "/",
                    "destination": f"{service}.{event}",
                    "destination_type": "queue",
                    "routing_key": f"{service}.{event}.#",
                    "arguments": {},
                }
            )
    for service in SERVICES[:4]:
        exchanges.append(
            {
                "name": f"{service}.dlx",
                "vhost": "/",
                "type": "fanout",
                "durable": True,
                "auto_delete": False,
                "internal": False,
                "arguments": {},
            }
        )
        bindings.append(
            {
                "source": f"{service}.dlx",
                "vhost": "/",
                "destination": f"{service}.dead",
                "destination_type": "queue",
                "routing_key": "",
                "arguments": {},
            }
        )
    exchanges.append(
        {
            "name": "billing.headers",
            "vhost": "billing",
            "type": "headers",
            "durable": True,
            "auto_delete": False,
            "internal": False,
            "arguments": {},
        }
    )
    exchanges.append(
        {
            "name": "staging.fanout",
            "vhost": "staging",
            "type": "fanout",
            "durable": True,
            "auto_delete": False,
            "internal": False,
            "arguments": {},
        }
    )
    bindings.append(
        {
            "source": "billing.headers",
            "vhost": "billing",
            "destination": "payment.runs",
            "destination_type": "queue",
            "routing_key": "",
            "arguments": {
                "x-match": "any",
                "note": 'paste from ticket <img src=x onerror="window.__corpus_xss=2">',
            },
        }
    )
    bindings.append(
        {
            "source": "staging.fanout",
            "vhost": "staging",
            "destination": "test.smoke",
            "destination_type": "queue",
            "routing_key": "",
            "arguments": {},
        }
    )
    policies = [
        {
            "vhost": "/",
            "name": "ttl-reports",
            "pattern": "^reports\\.",
            "apply-to": "queues",
            "priority": 1,
            "definition": {"message-ttl": 86400000},
        },
        {
            "vhost": "/",
            "name": "max-len-thumbs",
            "pattern": "^thumbnails\\.",
            "apply-to": "queues",
            "priority": 0,
            "definition": {"max-length": 20000},
        },
        {
            "vhost": "billing",
            "name": "ha-ledger",
            "pattern": "^ledger",
            "apply-to": "all",
            "priority": 0,
            "definition": {"expires": 3600000},
        },
    ]
    messages = []
    for index, service in enumerate(SERVICES):
        for event, count in (
            ("created", 4 + index),
            ("retry", index % 4),
            ("dead", 2 if index % 3 == 0 else 0),
        ):
            for number in range(count):
                payload = json.dumps({"id": 1000 * index + number, "event": event, "service": service})
                messages.append(
                    {
                        "vhost": "/",
                        "queue": f"{service}.{event}",
                        "payload": payload,
                        "properties": {
                            "content_type": "application/json",
                            "headers": {"attempt": number % 3},
                        },
                    }
                )
    for number in range(12):
        messages.append({"vhost": "billing", "queue": "payment.runs", "payload": f"run {number}"})
    return {
        "rabbit_version": "3.10.8",
        "users": users,
        "vhosts": vhosts,
        "permissions": permissions,
        "topic_permissions": [],
        "parameters": [],
        "global_parameters": [{"name": "cluster_name", "value": "corpus@ho19"}],
        "policies": policies,
        "queues": queues,
        "exchanges": exchanges,
        "bindings": bindings,
        "corpus_messages": messages,
    }


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = Path(sys.argv[1]).resolve()
    target = root / ".corpus-rmq"
    target.mkdir(exist_ok=True)
    path = target / "definitions.json"
    path.write_text(json.dumps(definitions(), indent=1))
    # the runner gives a seed no port: this boot's management listener takes a free one
    seed(root, free_port(), path)


if __name__ == "__main__":
    main()
