#!/usr/bin/env bash
# Serving certificate of the admission webhook (docs/webhook.md), without cert-manager:
#
#   hack/webhook-certs.sh [DIR]     default DIR: deploy/overlays/webhook/certs
#
# writes DIR/ca.crt + DIR/ca.key (a CA of its own, kept when present) and DIR/tls.crt + DIR/tls.key
# (valid for the Service dcctl-webhook.<NAMESPACE>.svc, signed by that CA, renewed on every run).
# `kubectl apply -k deploy/overlays/webhook` then creates the Secret dcctl-webhook-serving-cert and
# puts ca.crt into the webhook's caBundle. The controller reads a renewed certificate from the
# mounted Secret within about a minute and a half, without a restart.
# Environment: NAMESPACE (default deploymentconfig-controller), DAYS (default 365).
set -euo pipefail
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SERVICE=dcctl-webhook exec bash "$REPO_DIR/hack/apiserver-certs.sh" "${1:-$REPO_DIR/deploy/overlays/webhook/certs}"
