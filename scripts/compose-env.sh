#!/usr/bin/env bash
# Writes the .env lines docker-compose.yml needs on this machine, so that afterwards plain
# `docker compose up --build`, `--scale`, `start` and `down -v` work with no variables in the shell:
#
#   BASE_IMAGE      debian:trixie-slim when a registry answers, else the local stand-in that
#                   scripts/docker-base.sh makes (debootstrap, once per machine)
#   REDIS_IMAGE     redis:7.4 when a registry answers, else gauntlet-local/redis:trixie, built here
#                   from docker/Dockerfile.redis on that BASE_IMAGE (Debian's redis-server)
#   EXTRA_CA_CERTS  the certificates this machine added to its trust store
#                   (/usr/local/share/ca-certificates: a TLS-intercepting proxy's CA), which npm
#                   inside the image builds must trust too; empty when there are none
#
#   scripts/compose-env.sh              # updates ./.env (other lines are kept)
#   scripts/compose-env.sh FILE         # updates FILE instead (created from ./.env if missing)
#
# Idempotent: images already present are reused, and the three lines are replaced, not added
# again. Prints the lines it wrote. Needs a running Docker engine (and, the first time without a
# registry, root and debootstrap for the base image: it prints the commands otherwise).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ENV_FILE="${1:-$ROOT/.env}"
REGISTRY_BASE=debian:trixie-slim
REGISTRY_REDIS=redis:7.4
LOCAL_REDIS="${GAUNTLET_REDIS_IMAGE:-gauntlet-local/redis:trixie}"
CA_DIR="${GAUNTLET_CA_DIR:-/usr/local/share/ca-certificates}"

say() { echo "[compose-env] $*" >&2; }

if ! command -v docker >/dev/null 2>&1 || ! docker info >/dev/null 2>&1; then
  say "no reachable Docker engine (docker info failed); run, as root:"
  echo "    apt-get install -y docker.io debootstrap" >&2
  echo "    dockerd >/var/log/dockerd.log 2>&1 &" >&2
  echo "    $0" >&2
  exit 1
fi

# Present, or pulled within a minute (an unreachable registry usually fails at once).
have_or_pull() {
  docker image inspect "$1" >/dev/null 2>&1 && return 0
  say "pulling $1 …"
  timeout 60 docker pull --quiet "$1" >/dev/null 2>&1
}

if have_or_pull "$REGISTRY_BASE"; then
  base="$REGISTRY_BASE"
else
  say "no registry for $REGISTRY_BASE: using the local Debian base (scripts/docker-base.sh)"
  base="$("$ROOT/scripts/docker-base.sh")"
fi

if have_or_pull "$REGISTRY_REDIS"; then
  redis="$REGISTRY_REDIS"
else
  redis="$LOCAL_REDIS"
  if ! docker image inspect "$redis" >/dev/null 2>&1; then
    say "no registry for $REGISTRY_REDIS: building $redis from docker/Dockerfile.redis on $base"
    docker build --quiet --tag "$redis" --build-arg BASE_IMAGE="$base" - <"$ROOT/docker/Dockerfile.redis" >/dev/null
  fi
fi

# One line of PEM text, newlines as \n inside double quotes (Compose's .env expands them back).
certs=""
if [ -d "$CA_DIR" ]; then
  certs="$(find "$CA_DIR" -name '*.crt' -type f -print0 | sort -z | xargs -0 -r cat | sed -e 's/\r$//' -e '/^$/d' |
    awk 'BEGIN { ORS = "" } { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); if (NR > 1) print "\\n"; print }')"
fi

lines="BASE_IMAGE=$base
REDIS_IMAGE=$redis
EXTRA_CA_CERTS=\"$certs\""

if [ ! -e "$ENV_FILE" ] && [ "$ENV_FILE" != "$ROOT/.env" ] && [ -e "$ROOT/.env" ]; then cp "$ROOT/.env" "$ENV_FILE"; fi
touch "$ENV_FILE"
kept="$(grep -v -E '^(BASE_IMAGE|REDIS_IMAGE|EXTRA_CA_CERTS)=' "$ENV_FILE" | grep -v -F '# Written by scripts/compose-env.sh' || true)"
{
  [ -n "$kept" ] && printf '%s\n' "$kept"
  echo "# Written by scripts/compose-env.sh (run it again to refresh): images and build certificates."
  printf '%s\n' "$lines"
} >"$ENV_FILE.partial"
mv "$ENV_FILE.partial" "$ENV_FILE"
say "wrote to $ENV_FILE:"
printf '%s\n' "$lines" | sed -E 's/^(EXTRA_CA_CERTS=".{40}).+"$/\1…"/'
