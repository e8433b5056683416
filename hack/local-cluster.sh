#!/usr/bin/env bash
# A real local Kubernetes control plane built from the Go module proxy:
# etcd + kube-apiserver + kube-controller-manager + kube-scheduler + kwok (fake nodes), plus the
# process kubelet (hack/process-kubelet) that runs deployer and hook pods as local processes.
#
#   hack/local-cluster.sh install   build the binaries into the cache (idempotent)
#   hack/local-cluster.sh up        start everything, create 3 kwok nodes, wait until Ready
#   hack/local-cluster.sh down      stop exactly what `up` started (by recorded PID); safe twice
#   hack/local-cluster.sh status    what runs
#   hack/local-cluster.sh env       print `export KUBECONFIG=...`
#   hack/local-cluster.sh logs POD  print the log a process-kubelet pod wrote (namespace/pod or pod)
#
# Environment: LOCAL_CLUSTER_DIR (run directory, default <repo>/.local-cluster),
# XDG_CACHE_HOME (binary cache), POD_READY_DELAY_MS (kwok readiness delay, default 0),
# KWOK_NODES (default 3), KWOK_NODE_PODS (pod capacity per node, default 250), PROCESS_KUBELET (1 = start it, the default), PROCESS_KUBELET_MAX_PODS
# (pod processes run at once, default 8), PROCESS_KUBELET_NODE (the node binary pod processes run, default the
# process kubelet's own), INSTALL_PROGRESS_SECONDS (install progress interval, default 30), KUBE_APISERVER_EXTRA_ARGS (extra kube-apiserver flags,
# whitespace-separated; e.g. the benchmark's audit log: --audit-policy-file=... --audit-log-path=...).
# Without an --audit-policy-file there, kube-apiserver writes an audit log of the DeploymentConfig
# groups only (hack/audit-policy-dc.yaml, Metadata level) to <run dir>/audit-dc.log.
set -euo pipefail

HACK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$HACK_DIR/.." && pwd)
# shellcheck source=hack/versions.env
source "$HACK_DIR/versions.env"
CACHE_ROOT=${XDG_CACHE_HOME:-$HOME/.cache}/deploymentconfig-controller
BIN_DIR=$CACHE_ROOT/k8s-${K8S_VERSION}_etcd-${ETCD_VERSION}_kwok-${KWOK_VERSION}
RUN_DIR=${LOCAL_CLUSTER_DIR:-$REPO_DIR/.local-cluster}
KUBECONFIG_FILE=$RUN_DIR/admin.kubeconfig
POD_READY_DELAY_MS=${POD_READY_DELAY_MS:-0}
KWOK_NODES=${KWOK_NODES:-3}
KWOK_NODE_PODS=${KWOK_NODE_PODS:-250}
DEPLOYER_LABEL=openshift.io/deployer-pod-for.name
# dcctl-apiserver is started by hack/aggregated.sh (API mode); `down` stops it with the rest.
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok process-kubelet dcctl-apiserver)

say() { printf '[local-cluster] %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# ---------------------------------------------------------------- install
go_env() { export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod; }

module_download() { # module@version -> prints the GoMod path; dies with a clear message if not served
  local out
  if ! out=$(go mod download -json "$1" 2>&1); then
    die "module $1 could not be downloaded from the Go module proxy (not served?). Pick another served version in hack/versions.env. go said: $(echo "$out" | tr '\n' ' ' | cut -c1-400)"
  fi
  echo "$out" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p'
}

build_k8s() {
  if [ -x "$BIN_DIR/kube-apiserver" ] && [ -x "$BIN_DIR/kube-controller-manager" ] && [ -x "$BIN_DIR/kube-scheduler" ]; then
    say "kubernetes $K8S_VERSION: cached"; return 0
  fi
  say "kubernetes $K8S_VERSION: resolving modules, then building kube-apiserver, kube-controller-manager, kube-scheduler (the longest step)"
  local staging_version=v0.${K8S_VERSION#v1.} minor w kgomod ldf staging=()
  minor=$(echo "$K8S_VERSION" | cut -d. -f2)
  w=$(mktemp -d); pushd "$w" >/dev/null
  go mod init local.test/k8s-testbins >/dev/null 2>&1
  kgomod=$(module_download "k8s.io/kubernetes@$K8S_VERSION")
  # k8s.io/kubernetes requires its staging modules at v0.0.0 and replaces them with ./staging;
  # the wrapper module maps each to its published v0.Y.Z tag instead, derived from that go.mod.
  mapfile -t staging < <(sed -n 's#^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/src/.*#\1#p' "$kgomod")
  [ "${#staging[@]}" -gt 20 ] || die "could not read the staging module list from $kgomod"
  go mod edit -go="$(sed -n 's/^go //p' "$kgomod")"
  grep '^godebug' "$kgomod" >> go.mod || true
  go mod edit -require="k8s.io/kubernetes@$K8S_VERSION"
  for m in "${staging[@]}"; do go mod edit -replace="$m=$m@$staging_version"; done
  printf '//go:build tools\n\npackage tools\n\nimport (\n\t_ "k8s.io/kubernetes/cmd/kube-apiserver"\n\t_ "k8s.io/kubernetes/cmd/kube-controller-manager"\n\t_ "k8s.io/kubernetes/cmd/kube-scheduler"\n)\n' > tools.go
  with_progress "module download for kubernetes $K8S_VERSION" go mod tidy
  ldf="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldf+=" -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor"
    ldf+=" -X $p.gitTreeState=clean -X $p.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  done
  mkdir -p "$BIN_DIR"
  with_progress "kube-apiserver, kube-controller-manager, kube-scheduler" \
    go build -p 2 -trimpath -buildvcs=false -ldflags "$ldf" -o "$BIN_DIR/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler
  popd >/dev/null; rm -rf "$w"
}

build_etcd() {
  if [ -x "$BIN_DIR/etcd" ]; then say "etcd $ETCD_VERSION: cached"; return 0; fi
  say "etcd $ETCD_VERSION: building"
  local w; w=$(mktemp -d); pushd "$w" >/dev/null
  go mod init local.test/etcd-bin >/dev/null 2>&1
  printf '//go:build tools\n\npackage tools\n\nimport _ "go.etcd.io/etcd/server/v3"\n' > tools.go
  module_download "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >/dev/null
  go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" && go mod tidy || die "could not resolve etcd $ETCD_VERSION"
  mkdir -p "$BIN_DIR"
  with_progress etcd go build -p 2 -trimpath -buildvcs=false \
    -ldflags="-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=${ETCD_VERSION}" -o "$BIN_DIR/etcd" go.etcd.io/etcd/server/v3
  popd >/dev/null; rm -rf "$w"
}

build_kwok() {
  if [ -x "$BIN_DIR/kwok" ] && [ -d "$BIN_DIR/kwok-stage" ]; then say "kwok $KWOK_VERSION: cached"; return 0; fi
  say "kwok $KWOK_VERSION: building"
  module_download "sigs.k8s.io/kwok@$KWOK_VERSION" >/dev/null
  mkdir -p "$BIN_DIR"
  with_progress kwok env GOBIN="$BIN_DIR" go install -trimpath \
    -ldflags="-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${KWOK_VERSION#v}" "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
  rm -rf "$BIN_DIR/kwok-stage"
  cp -r "$(go env GOMODCACHE)/sigs.k8s.io/kwok@$KWOK_VERSION/kustomize/stage" "$BIN_DIR/kwok-stage"
  chmod -R u+w "$BIN_DIR/kwok-stage"
}

all_built() {
  local b
  for b in etcd kwok kube-apiserver kube-controller-manager kube-scheduler; do [ -x "$BIN_DIR/$b" ] || return 1; done
  [ -d "$BIN_DIR/kwok-stage" ]
}

elapsed() { local s=$(( $(date +%s) - $1 )); printf '%dm%02ds' $(( s / 60 )) $(( s % 60 )); }

# Runs a build step in the background and says every 30 s which component is being built and for
# how long, so a cold first run never sits silent for minutes.
INSTALL_START=$(date +%s)
INSTALL_PROGRESS_SECONDS=${INSTALL_PROGRESS_SECONDS:-30}
with_progress() { # component, command...
  local what=$1; shift
  local start pid ticks=0
  start=$(date +%s)
  "$@" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1; ticks=$((ticks + 1))
    if [ $((ticks % INSTALL_PROGRESS_SECONDS)) -eq 0 ] && kill -0 "$pid" 2>/dev/null; then
      say "still building $what: $(elapsed "$start") (install running $(elapsed "$INSTALL_START"))"
    fi
  done
  wait "$pid" || die "building $what failed (see the go output above)"
  say "built $what in $(elapsed "$start")"
}

cmd_install() {
  if all_built; then
    say "control-plane binaries: cached in $BIN_DIR"
    return 0
  fi
  command -v go >/dev/null || die "Go is required to build the control plane (none on PATH). Install Go >= 1.26 or use a machine that has it."
  go_env
  INSTALL_START=$(date +%s)
  say "FIRST RUN: building the control-plane binaries (etcd, kwok, kube-apiserver, kube-controller-manager,"
  say "kube-scheduler) from the Go module proxy into $BIN_DIR."
  say "A cold build takes 7-14 minutes on 2 cores (peak RSS about 2 GB); progress is printed every ${INSTALL_PROGRESS_SECONDS} s."
  say "Later runs reuse the cache (delete $BIN_DIR to rebuild)."
  build_etcd; build_kwok; build_k8s
  "$BIN_DIR/kube-apiserver" --version >&2
  say "install done in $(elapsed "$INSTALL_START")"
}

# ---------------------------------------------------------------- up/down
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
# Alive = exists and is not a zombie waiting to be reaped.
pid_alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
pid_of() { cat "$RUN_DIR/$1.pid" 2>/dev/null || true; }

start_component() { # name, command...: runs in its own process group, logs to RUN_DIR/<name>.log
  local name=$1; shift
  setsid "$@" >"$RUN_DIR/$name.log" 2>&1 < /dev/null &
  echo $! > "$RUN_DIR/$name.pid"
}

tail_logs() {
  for c in "${COMPONENTS[@]}"; do
    [ -f "$RUN_DIR/$c.log" ] || continue
    say "---- last 30 lines of $c.log"; tail -n 30 "$RUN_DIR/$c.log" >&2 || true
  done
}

wait_for() { # description, timeout seconds, command...
  local what=$1 timeout=$2; shift 2
  local deadline=$(( $(date +%s) + timeout ))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then say "timed out waiting for $what"; tail_logs; cmd_down; exit 1; fi
    sleep 0.2
  done
}

make_pki() {
  local p=$RUN_DIR/pki; mkdir -p "$p"
  (
    cd "$p"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 3650 -subj "/CN=local-cluster-ca" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout apiserver.key -out apiserver.csr -subj "/CN=kube-apiserver" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature,keyEncipherment\n' > apiserver.ext
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out apiserver.crt -days 3650 -extfile apiserver.ext 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=local-admin" 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\nkeyUsage=digitalSignature,keyEncipherment\n' > client.ext
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out admin.crt -days 3650 -extfile client.ext 2>/dev/null
    openssl genrsa -out sa.key 2048 2>/dev/null && openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
    # Serving certificate of the process kubelet's log endpoint (kube-apiserver -> kubelet).
    openssl req -newkey rsa:2048 -nodes -keyout kubelet.key -out kubelet.csr -subj "/CN=process-kubelet" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature,keyEncipherment\n' > kubelet.ext
    openssl x509 -req -in kubelet.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out kubelet.crt -days 3650 -extfile kubelet.ext 2>/dev/null
    # Aggregation layer (harmless in CRD mode): the front-proxy CA and the client certificate
    # kube-apiserver presents to aggregated API servers (this project's aggregated API server
    # gets its serving certificate from hack/apiserver-certs.sh, through hack/aggregated.sh).
    openssl req -x509 -newkey rsa:2048 -nodes -keyout front-proxy-ca.key -out front-proxy-ca.crt -days 3650 -subj "/CN=local-front-proxy-ca" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout front-proxy-client.key -out front-proxy-client.csr -subj "/CN=front-proxy-client" 2>/dev/null
    openssl x509 -req -in front-proxy-client.csr -CA front-proxy-ca.crt -CAkey front-proxy-ca.key -CAcreateserial -out front-proxy-client.crt -days 3650 -extfile client.ext 2>/dev/null
  )
}

write_kubeconfig() { # port
  local p=$RUN_DIR/pki b64='base64 -w0'
  cat > "$KUBECONFIG_FILE" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: https://127.0.0.1:$1
    certificate-authority-data: $($b64 < "$p/ca.crt")
users:
- name: admin
  user:
    client-certificate-data: $($b64 < "$p/admin.crt")
    client-key-data: $($b64 < "$p/admin.key")
contexts:
- name: local
  context: {cluster: local, user: admin}
current-context: local
EOF
  chmod 600 "$KUBECONFIG_FILE"
}

write_kwok_stages() {
  local k=$BIN_DIR/kwok-stage out=$RUN_DIR/kwok-stages.yaml
  # pod-ready and pod-complete skip deployer and hook pods (the process kubelet runs those);
  # pod-delete stays universal, so any deleted pod goes away as a kubelet would make it.
  {
    cat "$k/node/fast/node-initialize.yaml"; echo '---'
    cat "$k/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml"; echo '---'
    for s in pod-ready pod-complete; do
      awk -v lbl="$DEPLOYER_LABEL" '
        {print}
        /^    matchExpressions:$/ && !sel {
          print "    - key: '"'"'.metadata.labels[\"" lbl "\"]'"'"'"; print "      operator: '"'"'DoesNotExist'"'"'"; sel=1 }
      ' "$k/pod/fast/$s.yaml"
      if [ "$s" = pod-ready ] && [ "$POD_READY_DELAY_MS" -gt 0 ]; then
        printf '  delay:\n    durationMilliseconds: %s\n' "$POD_READY_DELAY_MS"
      fi
      echo '---'
    done
    cat "$k/pod/fast/pod-delete.yaml"
  } > "$out"
}

create_nodes() {
  local i
  for i in $(seq 0 $(( KWOK_NODES - 1 ))); do
    cat <<EOF
apiVersion: v1
kind: Node
metadata:
  name: kwok-node-$i
  annotations: {kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0"}
  labels: {kubernetes.io/hostname: kwok-node-$i, kubernetes.io/os: linux, kubernetes.io/arch: amd64, type: kwok}
status:
  allocatable: {cpu: "32", memory: 256Gi, pods: "$KWOK_NODE_PODS"}
  capacity: {cpu: "32", memory: 256Gi, pods: "$KWOK_NODE_PODS"}
---
EOF
  done | kubectl --kubeconfig "$KUBECONFIG_FILE" apply -f - >/dev/null
}

nodes_ready() {
  local n
  n=$(kubectl --kubeconfig "$KUBECONFIG_FILE" get nodes -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].status} {.spec.taints[*].key}{"\n"}{end}' 2>/dev/null \
    | grep -c '^True *$' || true)
  [ "$n" -ge "$KWOK_NODES" ]
}

is_up() { pid_alive "$(pid_of kube-apiserver)" && [ -f "$KUBECONFIG_FILE" ]; }

cmd_up() {
  for b in etcd kube-apiserver kube-controller-manager kube-scheduler kwok; do
    [ -x "$BIN_DIR/$b" ] || die "$b is not built; run: hack/local-cluster.sh install"
  done
  command -v kubectl >/dev/null || die "kubectl is required on PATH"
  if is_up; then say "already running in $RUN_DIR"; cmd_env; return 0; fi
  cmd_down >/dev/null 2>&1 || true
  local start; start=$(date +%s)
  mkdir -p "$RUN_DIR"; rm -rf "${RUN_DIR:?}"/{etcd-data,pki,apiserver-certs,*.log,*.pid,pod-logs,*.yaml,*.env}
  make_pki
  local etcd_port etcd_peer api_port sched_port kubelet_port kwok_port
  etcd_port=$(free_port); etcd_peer=$(free_port); api_port=$(free_port); sched_port=$(free_port)
  kubelet_port=$(free_port); kwok_port=$(free_port)
  write_kubeconfig "$api_port"
  echo "API_PORT=$api_port ETCD_PORT=$etcd_port KUBELET_PORT=$kubelet_port" > "$RUN_DIR/ports.env"

  say "starting etcd on 127.0.0.1:$etcd_port"
  start_component etcd "$BIN_DIR/etcd" --name=local --data-dir="$RUN_DIR/etcd-data" \
    --listen-client-urls=http://127.0.0.1:$etcd_port --advertise-client-urls=http://127.0.0.1:$etcd_port \
    --listen-peer-urls=http://127.0.0.1:$etcd_peer --initial-advertise-peer-urls=http://127.0.0.1:$etcd_peer \
    --initial-cluster=local=http://127.0.0.1:$etcd_peer --initial-cluster-state=new \
    --unsafe-no-fsync --quota-backend-bytes=4294967296 --log-level=warn
  wait_for etcd 30 curl -fs "http://127.0.0.1:$etcd_port/health"

  say "starting kube-apiserver on https://127.0.0.1:$api_port"
  local p=$RUN_DIR/pki audit_args=()
  case " ${KUBE_APISERVER_EXTRA_ARGS:-} " in
    *--audit-policy-file*) ;;
    *) audit_args=(--audit-policy-file="$HACK_DIR/audit-policy-dc.yaml" --audit-log-path="$RUN_DIR/audit-dc.log"
         --audit-log-maxsize=100 --audit-log-maxbackup=1 --audit-log-mode=blocking) ;;
  esac
  start_component kube-apiserver "$BIN_DIR/kube-apiserver" \
    --etcd-servers=http://127.0.0.1:$etcd_port \
    --bind-address=127.0.0.1 --secure-port="$api_port" \
    --tls-cert-file="$p/apiserver.crt" --tls-private-key-file="$p/apiserver.key" --client-ca-file="$p/ca.crt" \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$p/sa.pub" --service-account-signing-key-file="$p/sa.key" \
    --api-audiences=https://kubernetes.default.svc.cluster.local \
    --service-cluster-ip-range=10.0.0.0/24 --authorization-mode=Node,RBAC --allow-privileged=true \
    --endpoint-reconciler-type=none --advertise-address=127.0.0.1 \
    --enable-priority-and-fairness=false --max-requests-inflight=0 --max-mutating-requests-inflight=0 \
    --kubelet-preferred-address-types=InternalIP \
    --requestheader-client-ca-file="$p/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
    --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
    --requestheader-uid-headers=X-Remote-Uid --requestheader-extra-headers-prefix=X-Remote-Extra- \
    --proxy-client-cert-file="$p/front-proxy-client.crt" --proxy-client-key-file="$p/front-proxy-client.key" \
    --profiling=false --v=1 "${audit_args[@]}" ${KUBE_APISERVER_EXTRA_ARGS:-}
  wait_for kube-apiserver 90 curl -fsk "https://127.0.0.1:$api_port/readyz"

  say "starting kube-controller-manager, kube-scheduler, kwok"
  start_component kube-controller-manager "$BIN_DIR/kube-controller-manager" \
    --kubeconfig="$KUBECONFIG_FILE" --authentication-kubeconfig="$KUBECONFIG_FILE" --authorization-kubeconfig="$KUBECONFIG_FILE" \
    --bind-address=127.0.0.1 --secure-port=0 --leader-elect=false \
    --controllers=replicationcontroller,garbagecollector,namespace,serviceaccount,nodelifecycle,deployment,replicaset,podgc,root-ca-cert-publisher,horizontalpodautoscaling,clusterrole-aggregation \
    --horizontal-pod-autoscaler-sync-period=2s \
    --root-ca-file="$p/ca.crt" --node-monitor-grace-period=60s \
    --concurrent-deployment-syncs=5 --concurrent-replicaset-syncs=5 --concurrent-rc-syncs=5 \
    --kube-api-qps=200 --kube-api-burst=400 --v=1
  cat > "$RUN_DIR/scheduler.yaml" <<EOF
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: $KUBECONFIG_FILE
  qps: 200
  burst: 400
leaderElection:
  leaderElect: false
EOF
  start_component kube-scheduler "$BIN_DIR/kube-scheduler" --config="$RUN_DIR/scheduler.yaml" \
    --authentication-kubeconfig="$KUBECONFIG_FILE" --authorization-kubeconfig="$KUBECONFIG_FILE" \
    --bind-address=127.0.0.1 --secure-port="$sched_port" --v=1
  write_kwok_stages
  start_component kwok "$BIN_DIR/kwok" --kubeconfig="$KUBECONFIG_FILE" --config="$RUN_DIR/kwok-stages.yaml" \
    --manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
    --node-lease-duration-seconds=40 --node-ip=127.0.0.1 --cidr=10.0.0.0/16 \
    --node-port="$kubelet_port" --server-address="127.0.0.1:$kwok_port"

  create_nodes
  wait_for "$KWOK_NODES Ready, untainted kwok nodes" 90 nodes_ready

  if [ "${PROCESS_KUBELET:-1}" = 1 ] && [ -f "$REPO_DIR/hack/process-kubelet.mjs" ]; then
    say "starting the process kubelet (deployer and hook pods run as local processes)"
    mkdir -p "$RUN_DIR/pod-logs"
    start_component process-kubelet env KUBECONFIG="$KUBECONFIG_FILE" LOCAL_CLUSTER_DIR="$RUN_DIR" \
      KUBELET_PORT="$kubelet_port" KUBELET_TLS_CERT="$p/kubelet.crt" KUBELET_TLS_KEY="$p/kubelet.key" \
      node "$REPO_DIR/hack/process-kubelet.mjs"
  fi
  say "ready in $(( $(date +%s) - start ))s"
  cmd_env
}

cmd_down() {
  # Reverse start order, one at a time: clients first, etcd last, so nothing hangs on a dead peer.
  local c pid stopped=0 i idx
  for (( idx=${#COMPONENTS[@]}-1; idx>=0; idx-- )); do
    c=${COMPONENTS[$idx]}
    pid=$(pid_of "$c")
    if pid_alive "$pid"; then
      kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
      stopped=$((stopped + 1))
      i=0; while pid_alive "$pid" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
      if pid_alive "$pid"; then
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
        i=0; while pid_alive "$pid" && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
      fi
    fi
    rm -f "$RUN_DIR/$c.pid"
  done
  say "stopped $stopped component(s)"
}

cmd_status() {
  local c pid any=1
  for c in "${COMPONENTS[@]}"; do
    pid=$(pid_of "$c")
    if pid_alive "$pid"; then
      printf '%-24s running (pid %s, rss %s KiB)\n' "$c" "$pid" "$(ps -o rss= -p "$pid" | tr -d ' ')"; any=0
    else
      printf '%-24s stopped\n' "$c"
    fi
  done
  [ $any = 0 ] && [ -f "$KUBECONFIG_FILE" ] && echo "KUBECONFIG=$KUBECONFIG_FILE"
  return $any
}

cmd_env() { echo "export KUBECONFIG=$KUBECONFIG_FILE"; }

cmd_logs() {
  local ref=${1:?usage: local-cluster.sh logs [namespace/]pod}
  local f
  f=$(ls "$RUN_DIR/pod-logs/" 2>/dev/null | grep -E "(^|_)${ref//\//_}\.log$" | head -1 || true)
  [ -n "$f" ] || die "no log for pod $ref in $RUN_DIR/pod-logs"
  cat "$RUN_DIR/pod-logs/$f"
}

case "${1:-}" in
  install) cmd_install ;;
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  env) cmd_env ;;
  logs) shift; cmd_logs "$@" ;;
  *) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
