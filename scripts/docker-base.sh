#!/usr/bin/env bash
# Makes the local stand-in for `debian:trixie-slim` that our images build on where no image
# registry is reachable (CI, air-gapped hosts): a minimal Debian trixie made with debootstrap,
# slimmed like the official image, imported into Docker. Prints the image name on stdout.
#
#   scripts/docker-base.sh            # idempotent: reuses the image, else the cached tarball
#   docker build -f Dockerfile.env --build-arg BASE_IMAGE="$(scripts/docker-base.sh)" .
#
# The tarball is cached in ${GAUNTLET_CACHE_DIR:-~/.cache/gauntlet} so a machine debootstraps
# once; delete it to refresh. Needs a running Docker daemon, and root + debootstrap the first time.
set -euo pipefail

IMAGE="${GAUNTLET_BASE_IMAGE:-gauntlet-local/debian:trixie-slim}"
SUITE=trixie
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
CACHE_DIR="${GAUNTLET_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet}"
TARBALL="$CACHE_DIR/debian-$SUITE-minbase.tar.gz"

say() { echo "[docker-base] $*" >&2; }
fail() {
  say "$1"
  shift
  say "run, as root:"
  for line in "$@"; do echo "    $line" >&2; done
  exit 1
}

if ! command -v docker >/dev/null 2>&1 || ! docker info >/dev/null 2>&1; then
  fail "no reachable Docker engine (docker info failed)." \
    "apt-get install -y docker.io debootstrap" \
    "dockerd >/var/log/dockerd.log 2>&1 &" \
    "$0"
fi

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "$IMAGE"
  exit 0
fi

if [ ! -s "$TARBALL" ]; then
  if [ "$(id -u)" != 0 ] || ! command -v debootstrap >/dev/null 2>&1; then
    fail "building the base image $IMAGE needs root and debootstrap the first time." \
      "apt-get install -y debootstrap" \
      "$0"
  fi
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  rootfs="$work/rootfs"
  say "debootstrap $SUITE (minbase) from $MIRROR …"
  debootstrap --variant=minbase "$SUITE" "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log" >&2; fail "debootstrap failed (log above)." "$0"; }

  # What the official slim image does: the three suites as deb822 sources, no package lists or
  # downloaded .debs left behind, no docs, man pages or translations installed later, and dpkg
  # without fsync (a container layer is thrown away whole if a build fails; fsync made installing
  # npm's ~380 small packages take minutes).
  rm -f "$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: ${MIRROR}
Suites: ${SUITE} ${SUITE}-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${MIRROR%/debian}/debian-security
Suites: ${SUITE}-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/lintian/*
EOF
  echo force-unsafe-io >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-apt-speedup"
  cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/var/log/* "$rootfs"/usr/share/doc/*/changelog* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
    "$rootfs"/usr/share/locale/*
  : >"$rootfs/etc/hostname"

  mkdir -p "$CACHE_DIR"
  tar --numeric-owner -C "$rootfs" -c . | gzip -1 >"$TARBALL.partial"
  mv "$TARBALL.partial" "$TARBALL"
  say "cached $TARBALL ($(du -h "$TARBALL" | cut -f1))"
fi

say "importing $TARBALL as $IMAGE"
docker import --change 'CMD ["bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  "$TARBALL" "$IMAGE" >/dev/null
echo "$IMAGE"
