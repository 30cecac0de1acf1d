"""docs/operators.md cannot drift from deploy/: every process line of deploy/Procfile is in the guide as written,
every variable of deploy/env.example is explained there, every environment variable the guide names is one the
product or deploy/ reads, and every service of the compose file is named."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "operators.md").read_text()
DEPLOY = ROOT / "deploy"
PRODUCT = ("config", "runtime", "engine", "league", "workers", "api", "web")
# An environment variable as the guide writes one: capitals, digits and underscores, at least one underscore
# (DATABASE_URL, DJANGO_DEBUG), or one of the Procfile's single words.
VARIABLE = re.compile(r"\b(?:[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]|PORT)\b")
# What the guide names in capitals that is not an environment variable.
NOT_VARIABLES = {"X_FORWARDED_PROTO"}


def _procfile_lines() -> list[str]:
    return [line for line in (DEPLOY / "Procfile").read_text().splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def _read_variables() -> set[str]:
    """Variables read from the environment: os.environ.get/_flag in the product, and whatever deploy/ sets or uses."""
    read = set()
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py") if (ROOT / package).is_dir() else ():
            read |= set(re.findall(r"(?:environ\.get|environ\[|_flag)\(?\s*[\"']([A-Z][A-Z0-9_]*)[\"']",
                                   path.read_text()))
    for path in DEPLOY.iterdir():
        if path.is_file():
            read |= set(VARIABLE.findall(path.read_text()))
    return read


def test_every_procfile_line_is_in_the_guide_as_written():
    lines = _procfile_lines()
    assert [line.split(":")[0] for line in lines] == ["web", "worker", "comparisons", "beat", "relay"]
    missing = [line for line in lines if line not in GUIDE.splitlines()]
    assert not missing, f"docs/operators.md lacks these lines of deploy/Procfile: {missing}"


def test_every_variable_of_env_example_is_in_the_guide():
    example = (DEPLOY / "env.example").read_text()
    variables = set(re.findall(r"\b([A-Z][A-Z0-9_]+)=", example))
    assert {"DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"} <= variables
    missing = sorted(v for v in variables if f"`{v}`" not in GUIDE and f"{v}=" not in GUIDE)
    assert not missing, f"docs/operators.md does not explain {missing}"


def test_every_variable_the_guide_names_is_read():
    named = set(VARIABLE.findall(GUIDE)) - NOT_VARIABLES
    assert {"DATABASE_URL", "DIAMONDS_CACHE_URL", "DJANGO_SSL_REDIRECT", "WORKER_CONCURRENCY"} <= named
    unknown = sorted(named - _read_variables())
    assert not unknown, f"docs/operators.md names variables nothing reads: {unknown}"


def test_every_compose_service_is_named():
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    assert {"postgres", "redis", "web", "beat", "relay"} <= set(services)
    missing = sorted(name for name in services if f"`{name}`" not in GUIDE)
    assert not missing, f"docs/operators.md does not name the compose services {missing}"


def test_the_plain_http_trial_switches_are_the_ones_the_settings_read():
    settings = (ROOT / "config" / "settings.py").read_text()
    trial = re.search(r"\*\*A trial over plain HTTP\*\*.*?```sh\n(.*?)```", GUIDE, re.S).group(1)
    switches = dict(line.split("=") for line in trial.split())
    assert switches == {"DJANGO_SSL_REDIRECT": "0", "DJANGO_SECURE_COOKIES": "0", "DJANGO_HSTS_SECONDS": "0"}
    for name in switches:
        assert f'"{name}"' in settings


SYSTEMD = DEPLOY / "systemd"


def _unit(name: str) -> dict[str, list[str]]:
    """A unit file's settings: key -> every value it is given (systemd allows a key more than once)."""
    settings: dict[str, list[str]] = {}
    for line in (SYSTEMD / name).read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def _systemd_escaped(command: str) -> str:
    """What systemd unescapes back to `command`: `$` and `%` doubled (a single `%h` would be the home directory)."""
    return command.replace("%", "%%").replace("$", "$$")


def test_every_procfile_line_is_a_systemd_service_that_runs_it_as_written_and_comes_back():
    """Issue 27: on a bare machine every process of deploy/Procfile is restarted when it exits, by a systemd unit
    that runs the Procfile's own command (through a shell, for its ${VAR:-default}s), never a copy that drifts."""
    procfile = dict(line.split(": ", 1) for line in _procfile_lines())
    target = _unit("diamonds-league.target")
    wanted = " ".join(target["Wants"]).split()
    assert sorted(wanted) == sorted(f"diamonds-league-{name}.service" for name in procfile)
    assert target["WantedBy"] == ["multi-user.target"]
    services = sorted(path.name for path in SYSTEMD.glob("*.service"))
    assert services == sorted(wanted)
    for name, command in procfile.items():
        unit = _unit(f"diamonds-league-{name}.service")
        assert unit["ExecStart"] == [f"/bin/sh -c 'exec {_systemd_escaped(command)}'"], name
        assert unit["Restart"] == ["always"] and int(unit["RestartSec"][0]) <= 5, name
        assert unit["StartLimitIntervalSec"] == ["0"], name  # never stops restarting
        assert unit["EnvironmentFile"] == ["/etc/diamonds-league/env"], name
        assert unit["User"] == ["diamonds-league"] and unit["Group"] == ["diamonds-league"], name
        for dependency in ("postgresql.service", "redis-server.service"):
            assert dependency in unit["After"][0].split() and dependency in unit["Wants"][0].split(), name
        assert unit["PartOf"] == ["diamonds-league.target"], name
        assert unit["NoNewPrivileges"] == ["yes"] and unit["ProtectSystem"] == ["strict"], name
        # The one file a process writes, beat's schedule, is where ProtectSystem=strict lets it write.
        if "BEAT_SCHEDULE_FILE" in command:
            state = unit["StateDirectory"][0]
            assert f"BEAT_SCHEDULE_FILE=/var/lib/{state}/celerybeat-schedule" in unit["Environment"], name


def test_the_guide_installs_every_systemd_unit():
    missing = sorted(path.name for path in SYSTEMD.iterdir() if path.name not in GUIDE)
    assert not missing, f"docs/operators.md does not name the units {missing}"
    assert "/etc/diamonds-league/env" in GUIDE and "useradd" in GUIDE


def test_every_long_running_compose_service_is_restarted_when_it_exits():
    """Issue 27: the web service too, as the workers (only the one-shot `migrate` runs once)."""
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    policies = {name: service.get("restart") for name, service in services.items()}
    assert policies.pop("migrate") == "no"
    assert policies["web"] == "unless-stopped"
    assert set(policies.values()) == {"unless-stopped"}, policies
