#!/usr/bin/env bash
# Serving certificate of the API-mode front (docs/apiserver.md), without cert-manager:
#
#   hack/apiserver-certs.sh [DIR]     default DIR: deploy/overlays/aggregated/certs
#
# writes DIR/ca.crt + DIR/ca.key (a CA of its own, kept when present) and DIR/tls.crt +
# DIR/tls.key (valid for the Service dcctl-apiserver.<NAMESPACE>.svc, signed by that CA, renewed
# on every run). `kubectl apply -k deploy/overlays/aggregated` then creates the Secret
# dcctl-apiserver-serving-cert from tls.crt/tls.key and puts ca.crt into the APIService's
# caBundle (a kustomize replacement), so kube-apiserver verifies the front it proxies to. Keep
# ca.key out of version control (the overlay's .gitignore ignores certs/).
# Environment: NAMESPACE (default deploymentconfig-controller), DAYS (default 365), SERVICE (default
# dcctl-apiserver; hack/webhook-certs.sh runs this for dcctl-webhook).
set -euo pipefail
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=${1:-$REPO_DIR/deploy/overlays/aggregated/certs}
NAMESPACE=${NAMESPACE:-deploymentconfig-controller}
DAYS=${DAYS:-365}
SERVICE=${SERVICE:-dcctl-apiserver}
command -v openssl >/dev/null || { echo "apiserver-certs: openssl is required" >&2; exit 1; }
mkdir -p "$DIR"
umask 077
if [ ! -s "$DIR/ca.crt" ] || [ ! -s "$DIR/ca.key" ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -keyout "$DIR/ca.key" -out "$DIR/ca.crt" \
    -subj "/CN=$SERVICE-ca" -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  echo "apiserver-certs: new CA $DIR/ca.crt" >&2
fi
ext=$(mktemp); csr=$(mktemp); trap 'rm -f "$ext" "$csr"' EXIT
printf 'subjectAltName=DNS:%s.%s.svc,DNS:%s.%s.svc.cluster.local\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\nbasicConstraints=CA:FALSE\n' \
  "$SERVICE" "$NAMESPACE" "$SERVICE" "$NAMESPACE" > "$ext"
openssl req -newkey rsa:2048 -nodes -keyout "$DIR/tls.key" -out "$csr" -subj "/CN=$SERVICE.$NAMESPACE.svc" 2>/dev/null
openssl x509 -req -in "$csr" -CA "$DIR/ca.crt" -CAkey "$DIR/ca.key" -CAcreateserial -CAserial "$DIR/ca.srl" \
  -days "$DAYS" -extfile "$ext" -out "$DIR/tls.crt" 2>/dev/null
chmod 644 "$DIR/ca.crt" "$DIR/tls.crt"
echo "apiserver-certs: serving certificate $DIR/tls.crt for $SERVICE.$NAMESPACE.svc, valid $DAYS days" >&2
