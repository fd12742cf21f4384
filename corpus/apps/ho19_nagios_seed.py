"""Build and seed ho19_nagios: Nagios Core's daemon and CGIs from the checkout, a fresh configuration.

Usage: ho19_nagios_seed.py ROOT

`make all` in the checkout (configured by the app file's setup; after a build's injections only the
changed sources recompile), then a fresh ROOT/.corpus-nagios: nagios.cfg and cgi.cfg, the objects (120
hosts in 6 host groups, 386 services in 4 service groups: service detail pages of 100, host detail two
pages), a state retention file giving every host and service a state (ups, downs, unreachables,
criticals, warnings, unknowns; some acknowledged, two hosts in scheduled downtime, comments by three
people) and a log of four days of alerts and notifications for the history, notification, event log
and availability reports. Checks, notifications and event handlers are off, so the states stay as
seeded and nothing is run or sent; every address is on 127.0.0.0/8. The CGIs show everything to
anyone (default_user_name, as a monitoring host behind a firewall is set up); one service's check
output carries markup a checked web page put in its title.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

NOW = 1796000000  # fixed: 2026-11-29 UTC, so every seed is the same
DAY = 86400

GROUPS = {
    "web": ("Web servers", ["HTTP", "HTTPS certificate", "Load", "Disk /"]),
    "db": ("Database servers", ["PostgreSQL", "Replication lag", "Load", "Disk /var/lib"]),
    "cache": ("Cache nodes", ["Redis", "Memory", "Load"]),
    "worker": ("Queue workers", ["Worker pool", "Queue depth", "Load"]),
    "mail": ("Mail relays", ["SMTP", "Mail queue", "Load"]),
    "net": ("Network devices", ["Ping", "Interface uplink"]),
}
COUNTS = {"web": 30, "db": 16, "cache": 18, "worker": 26, "mail": 10, "net": 20}
PEOPLE = ["alice", "bob", "carol"]


def hosts() -> list[tuple[str, str, int]]:
    """(host name, group, number) for every host."""
    result = []
    for group, count in COUNTS.items():
        for number in range(1, count + 1):
            result.append((f"{group}-{number:02d}", group, number))
    return result


def objects() -> str:
    out = [
        "define timeperiod {\n timeperiod_name 24x7\n alias Always\n"
        + "".join(
            f" {day} 00:00-24:00\n"
            for day in ("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday")
        )
        + "}",
        "define command {\n command_name check_dummy\n command_line /bin/true\n}",
        "define command {\n command_name notify_none\n command_line /bin/true\n}",
        "define contact {\n contact_name nagiosadmin\n alias Nagios Admin\n email nagios@localhost\n"
        " host_notification_period 24x7\n service_notification_period 24x7\n"
        " host_notification_options d,u,r\n service_notification_options w,u,c,r\n"
        " host_notification_commands notify_none\n service_notification_commands notify_none\n}",
        "define contactgroup {\n contactgroup_name admins\n alias Admins\n members nagiosadmin\n}",
    ]
    for group, (alias, _) in GROUPS.items():
        out.append(f"define hostgroup {{\n hostgroup_name {group}\n alias {alias}\n}}")
    for name, alias in (
        ("customer-facing", "Customer facing"),
        ("storage", "Storage"),
        ("capacity", "Capacity"),
        ("queues", "Queues and mail"),
    ):
        out.append(f"define servicegroup {{\n servicegroup_name {name}\n alias {alias}\n}}")
    for index, (host, group, number) in enumerate(hosts()):
        lines = [
            f" host_name {host}",
            f" alias {GROUPS[group][0][:-1]} {number}",
            f" address 127.0.{index // 200 + 1}.{index % 200 + 1}",
            f" hostgroups {group}",
            " check_command check_dummy",
            " max_check_attempts 3",
            " check_interval 5",
            " retry_interval 1",
            " check_period 24x7",
            " notification_interval 60",
            " notification_period 24x7",
            " contact_groups admins",
        ]
        if group != "net":
            lines.append(f" notes_url https://wiki.example.org/runbooks/{group}-hosts")
            lines.append(f" notes Runbook: {group} hosts are rebuilt from the {group} image")
        if group in ("web", "db") and number > 1:
            lines.append(f" parents net-{(number % COUNTS['net']) + 1:02d}")
        out.append("define host {\n" + "\n".join(lines) + "\n}")
        for service in GROUPS[group][1]:
            groups = []
            if service in ("HTTP", "HTTPS certificate", "SMTP"):
                groups.append("customer-facing")
            if service.startswith("Disk"):
                groups.append("storage")
            if service in ("Load", "Memory"):
                groups.append("capacity")
            if service in ("Queue depth", "Mail queue", "Worker pool"):
                groups.append("queues")
            lines = [
                f" host_name {host}",
                f" service_description {service}",
                " check_command check_dummy",
                " max_check_attempts 3",
                " check_interval 5",
                " retry_interval 1",
                " check_period 24x7",
                " notification_interval 60",
                " notification_period 24x7",
                " contact_groups admins",
            ]
            if groups:
                lines.append(" servicegroups " + ",".join(groups))
            out.append("define service {\n" + "\n".join(lines) + "\n}")
    return "\n\n".join(out) + "\n"


def host_state(group: str, number: int) -> tuple[int, str]:
    if group == "net" and number in (7, 13):
        return 1, "CRITICAL - 127.0.1.1: rta nan, lost 100%"
    if group == "web" and number in (21, 22):
        return 2, "CRITICAL - Host unreachable behind its parent"
    if group == "worker" and number == 9:
        return 1, "CRITICAL - Host unreachable (127.0.1.9)"
    return 0, "PING OK - Packet loss = 0%, RTA = 0.41 ms"


def service_state(host: str, group: str, number: int, service: str) -> tuple[int, str, str]:
    """(state, output, performance data)."""
    if group == "web" and number == 3 and service == "HTTP":
        return (
            1,
            'HTTP WARNING: HTTP/1.1 200 OK - title "Sale <img src=x onerror=window.__corpus_xss=1>" '
            "- 0.912 second response time",
            "time=0.912s;0.5;2.0;0",
        )
    if service == "Load":
        load = (number * 37 % 90) / 10
        state = 2 if load > 8 else 1 if load > 6 else 0
        label = ("OK", "WARNING", "CRITICAL")[state]
        return (
            state,
            f"{label} - load average: {load:.2f}, {load * 0.8:.2f}, {load * 0.6:.2f}",
            f"load1={load:.2f}",
        )
    if service.startswith("Disk"):
        used = 40 + number * 7 % 60
        state = 2 if used > 95 else 1 if used > 85 else 0
        label = ("DISK OK", "DISK WARNING", "DISK CRITICAL")[state]
        return state, f"{label} - free space: {100 - used}%", f"used={used}%;85;95"
    if service == "HTTPS certificate" and number % 11 == 0:
        return 1, "WARNING - Certificate expires in 12 day(s)", ""
    if service == "Replication lag" and number == 5:
        return 2, "CRITICAL - replica is 1834 seconds behind", "lag=1834s"
    if service == "Queue depth" and number % 8 == 0:
        return 3, "UNKNOWN - could not read queue statistics", ""
    if service == "Mail queue" and number == 4:
        return 2, "CRITICAL - 2311 messages in queue", "queue=2311"
    if service == "Interface uplink" and number == 7:
        return 2, "CRITICAL - ge-0/0/1 is down", ""
    return 0, f"{service.upper()} OK", ""


def retention() -> str:
    out = [f"info {{\ncreated={NOW}\nversion=4.5.9\n}}"]
    comment_id = 1
    comments = []
    for index, (host, group, number) in enumerate(hosts()):
        state, output = host_state(group, number)
        acked = 1 if (group == "net" and number == 13) else 0
        out.append(
            f"host {{\nhost_name={host}\nhas_been_checked=1\ncheck_execution_time=0.01\ncheck_latency=0.1\n"
            f"check_type=0\ncurrent_state={state}\nlast_state={state}\nlast_hard_state={state}\n"
            f"plugin_output={output}\nlong_plugin_output=\nperformance_data=\n"
            f"last_check={NOW - 60 - index}\nnext_check={NOW + 240}\ncurrent_attempt={3 if state else 1}\n"
            f"max_attempts=3\nstate_type=1\nlast_state_change={NOW - DAY * (index % 4) - 3600}\n"
            f"last_hard_state_change={NOW - DAY * (index % 4) - 3600}\nlast_time_up={NOW - (7200 if state else 60)}\n"
            f"notifications_enabled=1\nactive_checks_enabled=1\npassive_checks_enabled=1\n"
            f"event_handler_enabled=1\nflap_detection_enabled=1\nprocess_performance_data=1\n"
            f"obsess=1\nproblem_has_been_acknowledged={acked}\nacknowledgement_type={acked}\n"
            f"is_flapping=0\ncheck_options=0\n}}"
        )
        if acked:
            comments.append(("host", host, None, 4, "carol", "Uplink provider ticket #4471 open"))
        for service in GROUPS[group][1]:
            state, output, perf = service_state(host, group, number, service)
            acked = 1 if (state and (number + len(service)) % 5 == 0) else 0
            out.append(
                f"service {{\nhost_name={host}\nservice_description={service}\nhas_been_checked=1\n"
                f"check_execution_time=0.02\ncheck_latency=0.1\ncheck_type=0\ncurrent_state={state}\n"
                f"last_state={state}\nlast_hard_state={state}\ncurrent_attempt={3 if state else 1}\n"
                f"max_attempts=3\nstate_type=1\nplugin_output={output}\nlong_plugin_output=\n"
                f"performance_data={perf}\nlast_check={NOW - 30 - index}\nnext_check={NOW + 270}\n"
                f"last_state_change={NOW - DAY * (index % 3) - 1800}\n"
                f"last_hard_state_change={NOW - DAY * (index % 3) - 1800}\n"
                f"notifications_enabled=1\nactive_checks_enabled=1\npassive_checks_enabled=1\n"
                f"event_handler_enabled=1\nflap_detection_enabled=1\nprocess_performance_data=1\n"
                f"obsess=1\nproblem_has_been_acknowledged={acked}\nacknowledgement_type={acked}\n"
                f"is_flapping=0\ncheck_options=0\n}}"
            )
            if acked:
                comments.append(
                    ("service", host, service, 4, PEOPLE[number % 3], f"Looking into it ({service})")
                )
    for host, text, who in (
        ("db-05", "Replica rebuild scheduled for the weekend", "alice"),
        ("db-05", "Disk replaced 2026-11-20, watch the lag", "bob"),
        ("web-03", "Marketing's sale page is slow by design this week", "carol"),
        ("mail-04", "Relay blocklisted by a receiver, see mail thread", "alice"),
        ("worker-09", "Powered off for RAM test", "bob"),
    ):
        comments.append(("host", host, None, 1, who, text))
    comments.append(("service", "db-05", "Replication lag", 1, "alice", "Expected during the rebuild"))
    comments.append(("service", "cache-04", "Redis", 1, "carol", "Flushed by hand on 2026-11-27"))
    for kind, host, service, entry_type, who, text in comments:
        lines = [f"host_name={host}"]
        if service:
            lines.append(f"service_description={service}")
        lines += [
            f"entry_type={entry_type}",
            f"comment_id={comment_id}",
            "source=1",
            "persistent=1",
            f"entry_time={NOW - 3600 * comment_id}",
            "expires=0",
            "expire_time=0",
            f"author={who}",
            f"comment_data={text}",
        ]
        out.append(f"{kind}comment {{\n" + "\n".join(lines) + "\n}")
        comment_id += 1
    for downtime_id, host in enumerate(("cache-17", "cache-18"), start=1):
        out.append(
            f"hostdowntime {{\nhost_name={host}\ndowntime_id={downtime_id}\ncomment_id=0\n"
            f"entry_time={NOW - 600}\nstart_time={NOW + DAY * 60}\nflex_downtime_start=0\n"
            f"end_time={NOW + DAY * 60 + 7200}\ntriggered_by=0\nfixed=1\nduration=7200\n"
            f"is_in_effect=0\nstart_notification_sent=0\nauthor=bob\ncomment=Kernel upgrade window\n}}"
        )
    return "\n".join(out) + "\n"


def log() -> str:
    lines = []
    names = ("OK", "WARNING", "CRITICAL", "UNKNOWN")
    every = hosts()
    for step in range(240):
        when = NOW - 4 * DAY + step * 1440
        host, group, number = every[(step * 7) % len(every)]
        service = GROUPS[group][1][step % len(GROUPS[group][1])]
        state = (1, 2, 0, 3, 0)[step % 5]
        lines.append(
            f"[{when}] SERVICE ALERT: {host};{service};{names[state]};HARD;3;{service} {names[state]}"
        )
        if state in (1, 2) and step % 3 == 0:
            lines.append(
                f"[{when + 5}] SERVICE NOTIFICATION: nagiosadmin;{host};{service};{names[state]};"
                f"notify_none;{service} {names[state]}"
            )
        if step % 16 == 0:
            down = "DOWN" if step % 32 == 0 else "UP"
            lines.append(
                f"[{when + 9}] HOST ALERT: {host};{down};HARD;3;PING {'CRITICAL' if down == 'DOWN' else 'OK'}"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = Path(sys.argv[1]).resolve()
    subprocess.run(["make", "-j2", "all"], cwd=root, check=True, stdout=subprocess.DEVNULL)
    base = root / ".corpus-nagios"
    if base.exists():
        shutil.rmtree(base)
    etc, var = base / "etc", base / "var"
    for folder in (etc, var / "rw", var / "spool" / "checkresults", var / "archives"):
        folder.mkdir(parents=True)
    (etc / "objects.cfg").write_text(objects())
    (var / "retention.dat").write_text(retention())
    (var / "nagios.log").write_text(log())
    (etc / "nagios.cfg").write_text(
        f"""log_file={var}/nagios.log
cfg_file={etc}/objects.cfg
object_cache_file={var}/objects.cache
precached_object_file={var}/objects.precache
resource_file={etc}/resource.cfg
status_file={var}/status.dat
status_update_interval=2
nagios_user=root
nagios_group=root
check_external_commands=1
command_file={var}/rw/nagios.cmd
query_socket={var}/rw/nagios.qh
lock_file={var}/nagios.lock
temp_file={var}/nagios.tmp
temp_path={var}
log_archive_path={var}/archives
log_rotation_method=n
check_result_path={var}/spool/checkresults
state_retention_file={var}/retention.dat
retain_state_information=1
retention_update_interval=60
use_retained_program_state=0
use_retained_scheduling_info=1
execute_service_checks=0
execute_host_checks=0
accept_passive_service_checks=1
accept_passive_host_checks=1
enable_notifications=0
enable_event_handlers=0
enable_flap_detection=0
process_performance_data=0
check_service_freshness=0
check_host_freshness=0
check_for_orphaned_services=0
check_for_orphaned_hosts=0
check_for_updates=0
bare_update_check=0
use_syslog=0
log_notifications=1
log_external_commands=1
log_passive_checks=1
log_initial_states=0
date_format=iso8601
illegal_object_name_chars=`~!$%^&*|'"<>?,()=
illegal_macro_output_chars=`~$&|'"<>
admin_email=nagios@localhost
admin_pager=pagenagios@localhost
"""
    )
    (etc / "resource.cfg").write_text(f"$USER1$={root}/.corpus-nagios/libexec\n")
    (etc / "cgi.cfg").write_text(
        f"""main_config_file={etc}/nagios.cfg
physical_html_path={root}/html
url_html_path=/nagios
show_context_help=0
use_pending_states=1
use_authentication=1
use_ssl_authentication=0
default_user_name=nagiosadmin
authorized_for_system_information=nagiosadmin
authorized_for_configuration_information=nagiosadmin
authorized_for_system_commands=nagiosadmin
authorized_for_all_services=nagiosadmin
authorized_for_all_hosts=nagiosadmin
authorized_for_all_service_commands=nagiosadmin
authorized_for_all_host_commands=nagiosadmin
default_statusmap_layout=5
default_statuswrl_layout=4
ping_syntax=/bin/true
refresh_rate=90
result_limit=100
escape_html_tags=1
action_url_target=_blank
notes_url_target=_blank
lock_author_names=1
navbar_search_for_addresses=1
navbar_search_for_aliases=1
"""
    )
    print(f"seeded {len(hosts())} hosts into {base}")


if __name__ == "__main__":
    main()
