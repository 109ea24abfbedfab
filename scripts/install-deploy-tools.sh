#!/usr/bin/env bash
# Installs what the deployment files need on a Debian host, as root, and starts the Docker engine:
#   docker.io       the Docker engine (dockerd) and CLI
#   debootstrap     scripts/docker-base.sh makes the local Debian base image with it
#   docker-compose  Compose v2 (`docker compose`), for docker-compose.yml
#   kustomize       renders k8s/ (the k8s tests; `kubectl kustomize` works as well)
#   docker-buildx   BuildKit for `docker build`, the builder `docker compose build` uses: with
#                   both on it, the two share one build cache (the classic builder's is separate,
#                   so an image `docker build` made is built again from nothing by compose)
# Debian 12 (bookworm) has only Compose v1 and no kustomize: the script adds Debian 13 (trixie)
# as a source pinned at priority 100, so only these two packages come from it (both are static
# binaries needing just libc6). Idempotent; safe to rerun.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

say() { echo "[install-deploy-tools] $*" >&2; }
if [ "$(id -u)" != 0 ]; then
  say "run as root (sudo $0)"
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  say "needs apt-get (Debian/Ubuntu). Install Docker with Compose v2 and kustomize by your system's means."
  exit 1
fi

need=()
command -v dockerd >/dev/null || need+=(docker.io)
command -v debootstrap >/dev/null || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# Compose v2, buildx and kustomize: from the system's own suite when it has them, else from trixie.
compose_ok() { docker compose version >/dev/null 2>&1; }
buildx_ok() { docker buildx version >/dev/null 2>&1; }
if ! compose_ok || ! buildx_ok || ! command -v kustomize >/dev/null 2>&1; then
  . /etc/os-release
  suite=""
  if [ "${ID:-}" = debian ] && [ "${VERSION_CODENAME:-}" = bookworm ]; then
    suite=trixie
    if [ ! -f /etc/apt/sources.list.d/gauntlet-trixie.sources ]; then
      say "adding Debian trixie at pin priority 100 (for docker-compose and kustomize only)"
      cat >/etc/apt/sources.list.d/gauntlet-trixie.sources <<SOURCES
Types: deb
URIs: ${DEBIAN_MIRROR:-http://deb.debian.org/debian}
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
      printf 'Package: *\nPin: release n=trixie\nPin-Priority: 100\n' >/etc/apt/preferences.d/gauntlet-trixie
    fi
  fi
  apt-get update -qq
  packages=()
  compose_package=docker-compose
  [ "${ID:-}" = ubuntu ] && compose_package=docker-compose-v2
  compose_ok || packages+=("${compose_package}${suite:+/$suite}")
  buildx_ok || packages+=("docker-buildx${suite:+/$suite}")
  command -v kustomize >/dev/null 2>&1 || packages+=("kustomize${suite:+/$suite}")
  apt-get install -y -qq --no-install-recommends "${packages[@]}"
fi

if ! docker info >/dev/null 2>&1; then
  say "starting dockerd (log: /var/log/dockerd.log)"
  if command -v systemctl >/dev/null 2>&1 && systemctl start docker 2>/dev/null; then
    :
  else
    nohup dockerd >/var/log/dockerd.log 2>&1 &
  fi
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { say "dockerd did not start:"; tail -n 30 /var/log/dockerd.log >&2; exit 1; }
fi
compose_ok || { say "docker compose still missing after the install"; exit 1; }
buildx_ok || { say "docker buildx still missing after the install"; exit 1; }
say "ready: $(docker compose version), buildx $(docker buildx version | cut -d' ' -f2), kustomize $(kustomize version 2>/dev/null || echo present)"
