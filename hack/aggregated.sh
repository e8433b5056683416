#!/usr/bin/env bash
# API mode on the local control plane (docs/apiserver.md): the storage CRD, this project's
# aggregated API server as a local process, and the APIService v1.apps.openshift.io that routes
# the group to it. Test infrastructure only: a real cluster uses deploy/overlays/aggregated.
#
#   hack/aggregated.sh up      switch the running local plane to API mode (migrates existing DCs)
#   hack/aggregated.sh down    back to CRD mode (migrates DCs back), stop the API server
#   hack/aggregated.sh status  whether the API server runs and the APIService is Available
#
# The kube-apiserver cannot reach a loopback address through a ClusterIP or an Endpoints object,
# so the Service is an ExternalName service for "localhost" and the APIService names the port
# the local API server listens on. The serving certificate and the APIService's caBundle come from
# hack/apiserver-certs.sh, the script a real install uses for the overlay: the aggregator verifies
# the certificate for the Service's DNS name, so an Available APIService proves them right.
set -euo pipefail
HACK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$HACK_DIR/.." && pwd)
RUN_DIR=${LOCAL_CLUSTER_DIR:-$REPO_DIR/.local-cluster}
export KUBECONFIG=$RUN_DIR/admin.kubeconfig
CERTS=$RUN_DIR/apiserver-certs
NS=deploymentconfig-controller
PID_FILE=$RUN_DIR/dcctl-apiserver.pid
say() { printf '[aggregated] %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
pid_alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }
front_pid() { cat "$PID_FILE" 2>/dev/null || true; }

wait_established() {
  for _ in $(seq 1 300); do
    [ "$(kubectl get crd "$1" -o jsonpath='{.status.conditions[?(@.type=="Established")].status}' 2>/dev/null)" = True ] && return 0
    sleep 0.2
  done
  die "CRD $1 not Established"
}

apiservice_available() {
  [ "$(kubectl get apiservice v1.apps.openshift.io -o jsonpath='{.status.conditions[?(@.type=="Available")].status}' 2>/dev/null)" = True ]
}

start_front() {
  if pid_alive "$(front_pid)"; then return 0; fi
  local port; port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  echo "$port" > "$RUN_DIR/dcctl-apiserver.port"
  setsid node "$REPO_DIR/bin/dcctl.js" apiserver --kubeconfig "$KUBECONFIG" --bind-address 127.0.0.1 --secure-port "$port" \
    --tls-cert-file "$CERTS/tls.crt" --tls-private-key-file "$CERTS/tls.key" \
    --log-level "${APISERVER_LOG_LEVEL:-info}" >"$RUN_DIR/dcctl-apiserver.log" 2>&1 < /dev/null &
  echo $! > "$PID_FILE"
  for _ in $(seq 1 100); do
    curl -fsk "https://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
    pid_alive "$(front_pid)" || { tail -20 "$RUN_DIR/dcctl-apiserver.log" >&2; die "the API server exited"; }
    sleep 0.1
  done
  die "the API server did not answer on port $port"
}

cmd_up() {
  [ -f "$KUBECONFIG" ] || die "no local plane in $RUN_DIR (hack/local-cluster.sh up)"
  [ -s "$CERTS/tls.crt" ] || bash "$HACK_DIR/apiserver-certs.sh" "$CERTS" 2>/dev/null
  [ -f "$REPO_DIR/dist/dcctl.mjs" ] || [ -d "$REPO_DIR/dist" ] || die "run npm run build first"
  kubectl apply --server-side --force-conflicts -f "$REPO_DIR/crds/storage/deploymentconfig.yaml" >/dev/null
  wait_established deploymentconfigs.apps.dcctl.io
  kubectl create namespace "$NS" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
  # The overlay's RBAC: storage access for proxied requests, admin/edit/view aggregation. (The
  # local API server itself runs with the admin kubeconfig.)
  kubectl apply -f "$REPO_DIR/deploy/overlays/aggregated/rbac-apiserver.yaml" >/dev/null
  start_front
  local port; port=$(cat "$RUN_DIR/dcctl-apiserver.port")
  # Existing CRD-mode DCs move into the storage first: the CRD's automanaged APIService of the
  # group must be gone before ours is created (kube-aggregator's autoregister controller would
  # revert an APIService that still carries its label).
  if kubectl get crd deploymentconfigs.apps.openshift.io >/dev/null 2>&1; then
    node "$REPO_DIR/bin/dcctl.js" migrate-storage --to aggregated --force --timeout 20
  fi
  for _ in $(seq 1 300); do
    kubectl get apiservice v1.apps.openshift.io -o jsonpath='{.metadata.labels}' 2>/dev/null | grep -q automanaged || break
    sleep 0.2
  done
  kubectl apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Service
metadata: {name: dcctl-apiserver, namespace: $NS}
spec: {type: ExternalName, externalName: localhost}
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.apps.openshift.io}
spec:
  group: apps.openshift.io
  version: v1
  groupPriorityMinimum: 9900
  versionPriority: 15
  caBundle: $(base64 -w0 < "$CERTS/ca.crt")
  service: {name: dcctl-apiserver, namespace: $NS, port: $port}
YAML
  for _ in $(seq 1 600); do apiservice_available && break; sleep 0.2; done
  apiservice_available || { kubectl get apiservice v1.apps.openshift.io -o yaml >&2; tail -20 "$RUN_DIR/dcctl-apiserver.log" >&2; die "APIService v1.apps.openshift.io is not Available"; }
  # Discovery is cached by kube-apiserver's aggregated discovery; wait until it lists the group.
  for _ in $(seq 1 300); do kubectl api-resources --api-group=apps.openshift.io 2>/dev/null | grep -q '^deploymentconfigs ' && break; sleep 0.2; done
  # Second pass: re-own the RCs the first pass left orphaned (it needs the group served).
  node "$REPO_DIR/bin/dcctl.js" migrate-storage --to aggregated --force
  say "API mode: apps.openshift.io/v1 served by the local API server (pid $(front_pid), port $port, log $RUN_DIR/dcctl-apiserver.log)"
}

cmd_down() {
  if kubectl get apiservice v1.apps.openshift.io -o jsonpath='{.spec.service.name}' 2>/dev/null | grep -q .; then
    kubectl apply --server-side --force-conflicts -f "$REPO_DIR/crds/deploymentconfig.yaml" -f "$REPO_DIR/crds/deploymentconfig-policy.yaml" >/dev/null
    wait_established deploymentconfigs.apps.openshift.io
    node "$REPO_DIR/bin/dcctl.js" migrate-storage --to crd --force
  fi
  local pid; pid=$(front_pid)
  if pid_alive "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do pid_alive "$pid" || break; sleep 0.1; done
    pid_alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  say "CRD mode"
}

cmd_status() {
  local pid; pid=$(front_pid)
  if pid_alive "$pid"; then echo "dcctl-apiserver running (pid $pid, port $(cat "$RUN_DIR/dcctl-apiserver.port"))"; else echo "dcctl-apiserver stopped"; fi
  if apiservice_available; then echo "APIService v1.apps.openshift.io Available"; else echo "APIService v1.apps.openshift.io not available"; fi
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
