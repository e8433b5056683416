#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kube-scheduler, etcd and kwok from the Go module
# proxy into a cache outside the repository. Idempotent: returns at once when the binaries exist.
#   K8S_VERSION, ETCD_VERSION, KWOK_VERSION, TESTBINS_DIR override the defaults.
set -euo pipefail
K8S_VERSION=${K8S_VERSION:-v1.36.3}
ETCD_VERSION=${ETCD_VERSION:-v3.6.16}
KWOK_VERSION=${KWOK_VERSION:-v0.8.0}
ROOT=${TESTBINS_DIR:-$HOME/.cache/dcctl-testbins}
K8S_OUT=$ROOT/k8s-$K8S_VERSION
ETCD_OUT=$ROOT/etcd-$ETCD_VERSION
KWOK_OUT=$ROOT/kwok-$KWOK_VERSION
export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod
command -v go >/dev/null || { echo "go is required to build the control-plane binaries" >&2; exit 1; }

build_k8s() {
  [ -x "$K8S_OUT/kube-apiserver" ] && [ -x "$K8S_OUT/kube-controller-manager" ] && [ -x "$K8S_OUT/kube-scheduler" ] && return 0
  local staging_version=v0.${K8S_VERSION#v1.} minor w kgomod ldf
  minor=$(echo "$K8S_VERSION" | cut -d. -f2)
  w=$(mktemp -d); pushd "$w" >/dev/null
  go mod init local.test/k8s-testbins >/dev/null 2>&1
  kgomod=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
  mapfile -t staging < <(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/src/.*#\1#p' "$kgomod")
  [ "${#staging[@]}" -gt 20 ] || { echo "could not parse the staging module list from $kgomod" >&2; exit 1; }
  go mod edit -go="$(sed -n 's/^go //p' "$kgomod")"
  grep '^godebug' "$kgomod" >> go.mod || true
  go mod edit -require="k8s.io/kubernetes@$K8S_VERSION"
  for m in "${staging[@]}"; do go mod edit -replace="$m=$m@$staging_version"; done
  cat > tools.go <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
GO
  go mod tidy
  ldf="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldf+=" -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor"
    ldf+=" -X $p.gitTreeState=clean -X $p.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  done
  mkdir -p "$K8S_OUT.tmp"
  go build -p 2 -trimpath -buildvcs=false -ldflags "$ldf" -o "$K8S_OUT.tmp/" \
    k8s.io/kubernetes/cmd/kube-apiserver \
    k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler
  rm -rf "$K8S_OUT"; mv "$K8S_OUT.tmp" "$K8S_OUT"
  popd >/dev/null; rm -rf "$w"
}

build_etcd() {
  [ -x "$ETCD_OUT/etcd" ] && return 0
  local w; w=$(mktemp -d); pushd "$w" >/dev/null
  go mod init local.test/etcd-bin >/dev/null 2>&1
  printf '//go:build tools\n\npackage tools\n\nimport _ "go.etcd.io/etcd/server/v3"\n' > tools.go
  go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION"
  go mod tidy
  mkdir -p "$ETCD_OUT.tmp"
  go build -p 2 -trimpath -buildvcs=false -ldflags='-s -w' -o "$ETCD_OUT.tmp/etcd" go.etcd.io/etcd/server/v3
  rm -rf "$ETCD_OUT"; mv "$ETCD_OUT.tmp" "$ETCD_OUT"
  popd >/dev/null; rm -rf "$w"
}

build_kwok() {
  [ -x "$KWOK_OUT/kwok" ] && [ -d "$KWOK_OUT/stage" ] && return 0
  mkdir -p "$KWOK_OUT.tmp"
  GOBIN="$KWOK_OUT.tmp" go install -trimpath -ldflags='-s -w' "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
  cp -r "$(go env GOMODCACHE)/sigs.k8s.io/kwok@$KWOK_VERSION/kustomize/stage" "$KWOK_OUT.tmp/stage"
  chmod -R u+w "$KWOK_OUT.tmp/stage"
  rm -rf "$KWOK_OUT"; mv "$KWOK_OUT.tmp" "$KWOK_OUT"
}

start=$(date +%s)
build_etcd
build_kwok
build_k8s
echo "testbins ready in $ROOT ($(( $(date +%s) - start ))s)"
echo "K8S_BIN=$K8S_OUT ETCD_BIN=$ETCD_OUT KWOK_BIN=$KWOK_OUT"
