#!/usr/bin/env bash
# `npm start`: run the controllers against the current kubeconfig; when there is none (or it does
# not answer), build and start the local control plane from hack/ and run against that.
# DCCTL_API=aggregated: API mode on the local plane (docs/apiserver.md): the aggregated API server
# serves apps.openshift.io/v1 and the controllers use the storage group.
# On exit (Ctrl-C, SIGTERM) it stops what it started: the controllers, then (API mode on a plane
# that was already running) hack/aggregated.sh down, which moves the DCs back to CRD mode and
# stops the API server; a plane it started itself is stopped whole.
set -euo pipefail
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO_DIR"
[ -d node_modules ] || npm ci
npm run --silent build

started_here=0
cluster_answers() { kubectl version --request-timeout=5s >/dev/null 2>&1; }
if [ -n "${KUBECONFIG:-}" ] || [ -f "$HOME/.kube/config" ]; then
  if cluster_answers; then
    echo "[start] using the current kubeconfig ($(kubectl config current-context 2>/dev/null || echo default))" >&2
  else
    echo "[start] the current kubeconfig does not answer; using the local control plane instead" >&2
    unset KUBECONFIG; NEED_LOCAL=1
  fi
else
  NEED_LOCAL=1
fi
if [ "${NEED_LOCAL:-0}" = 1 ]; then
  bash hack/local-cluster.sh install
  if ! bash hack/local-cluster.sh status >/dev/null 2>&1; then started_here=1; fi
  eval "$(bash hack/local-cluster.sh up)"
  export KUBECONFIG
  echo "[start] local control plane is up. In another shell:  $(bash hack/local-cluster.sh env)" >&2
  echo "[start] then e.g.  kubectl apply -f examples/rolling-with-hooks.yaml && node bin/dcctl.js rollout status dc/frontend" >&2
fi
controller_args=()
switched_here=0
cleanup() {
  if [ "$switched_here" = 1 ] && [ "$started_here" != 1 ]; then bash hack/aggregated.sh down || true; fi
  if [ "$started_here" = 1 ]; then bash hack/local-cluster.sh down; fi
}
trap cleanup EXIT
if [ "${DCCTL_API:-crd}" = aggregated ]; then
  [ "${NEED_LOCAL:-0}" = 1 ] || { echo "[start] DCCTL_API=aggregated runs on the local plane only; on a cluster use kubectl apply -k deploy/overlays/aggregated" >&2; exit 1; }
  kubectl apply --server-side --force-conflicts -f crds/imagestream.yaml -f deploy/base/rbac-deployer.yaml -f deploy/base/image-policy.yaml >/dev/null
  switched_here=1
  bash hack/aggregated.sh up
  controller_args+=(--dc-group=apps.dcctl.io)
  crds=(imagestreams.image.openshift.io)
else
  kubectl apply --server-side --force-conflicts -f crds/deploymentconfig.yaml -f crds/deploymentconfig-policy.yaml -f crds/imagestream.yaml -f deploy/base/rbac-deployer.yaml -f deploy/base/image-policy.yaml >/dev/null
  # Kubernetes 1.36+ serves MutatingAdmissionPolicy v1: fractional Quantities are stored as strings (docs/crd.md).
  if kubectl get --raw /apis/admissionregistration.k8s.io/v1 2>/dev/null | grep -q '"mutatingadmissionpolicies"'; then
    kubectl apply --server-side --force-conflicts -f crds/optional/deploymentconfig-quantities-policy.yaml >/dev/null
  fi
  crds=(deploymentconfigs.apps.openshift.io imagestreams.image.openshift.io)
fi
# `kubectl wait` fails at once on a CRD with no conditions yet, so poll.
for crd in "${crds[@]}"; do
  for _ in $(seq 1 300); do
    [ "$(kubectl get crd "$crd" -o jsonpath='{.status.conditions[?(@.type=="Established")].status}' 2>/dev/null)" = True ] && break
    sleep 0.2
  done
done

set +e
# In the background so that a signal to this script alone still stops the controllers first.
node bin/dcctl.js controller --leader-elect=false --log-format="${LOG_FORMAT:-pretty}" "${controller_args[@]}" "$@" &
controller_pid=$!
trap 'kill -TERM "$controller_pid" 2>/dev/null' INT TERM
wait "$controller_pid"; code=$?
# A trapped signal ends the first wait early: wait for the controllers' own shutdown.
while kill -0 "$controller_pid" 2>/dev/null; do wait "$controller_pid"; code=$?; done
exit "$code"
