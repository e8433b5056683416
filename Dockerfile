# syntax=docker/dockerfile:1
# One image for the controller and for deployer pods (the ENTRYPOINT, bin/dcctl-entrypoint, runs
# `node /app/bin/dcctl.js` with the arguments; for `deploy` with --use-openssl-ca, see there):
#   deployer pod:  (default CMD)                 node /app/bin/dcctl.js deploy
#                  The controller builds deployer pods as OpenShift does, with no command and no
#                  args, so the image's defaults must run the deployer (OpenShift's deployer image
#                  runs openshift-deploy the same way); a command such as ["openshift-deploy"] or
#                  ["dcctl", "deploy"] (--deployer-command) does the same.
#   controller:    args ["controller", ...]      (deploy/base/controller.yaml)
#   API server:    args ["apiserver", ...]       (deploy/overlays/aggregated/apiserver.yaml)
# Custom strategies whose command calls `openshift-deploy` (OpenShift's deployer binary name)
# get `dcctl deploy` through the shim in /usr/local/bin.

# ---- build: compile TypeScript, then drop dev dependencies
FROM node:26-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY hack/bundle.mjs ./hack/bundle.mjs
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# ---- runtime
FROM node:26-bookworm-slim
# NODE_COMPILE_CACHE: Node.js keeps the V8 code it compiled for the bundles there. The build fills
# it (the last RUN), so a deployer pod, one fresh process per rollout, does not compile the
# deployer again each time: 4.5 ms of a deployer's ~190 ms of CPU, and 86 ms of a full CLI
# command's 534 (docs/design.md §6.1). Node keys the cache by its version, its V8 flags and the
# UID: a process with other flags (the controller's NODE_OPTIONS) or another UID (an OpenShift
# SCC) compiles as before; the cache is read-only, so nothing is written to it at run time.
ENV NODE_ENV=production NODE_COMPILE_CACHE=/app/.compile-cache
WORKDIR /app
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY bin ./bin
COPY crds ./crds
RUN printf '#!/bin/sh\nexec /app/bin/dcctl-entrypoint deploy "$@"\n' > /usr/local/bin/openshift-deploy \
 && printf '#!/bin/sh\nexec /app/bin/dcctl-entrypoint "$@"\n' > /usr/local/bin/dcctl \
 && ln -s /app/bin/kubectl-dc.js /usr/local/bin/kubectl-dc \
 && ln -s /app/bin/kubectl_complete-dc.js /usr/local/bin/kubectl_complete-dc \
 && chmod 0755 /usr/local/bin/openshift-deploy /usr/local/bin/dcctl /app/bin/dcctl-entrypoint /app/bin/dcctl.js /app/bin/kubectl-dc.js /app/bin/kubectl_complete-dc.js \
 && useradd --uid 1001 --gid 0 --home-dir /home/dcctl --create-home --shell /usr/sbin/nologin dcctl \
 && mkdir /app/.compile-cache && chown 1001:0 /app/.compile-cache
# Group 0 as on OpenShift, where the UID is arbitrary but the group is root.
USER 1001:0
# Every CLI chunk too (hack/bundle.mjs): a command loads the ones it imports on demand.
RUN node --input-type=module -e "await import('/app/dist/deployer.cjs'); for (const f of (await import('node:fs')).readdirSync('/app/dist')) if (/^dcctl.*[.]mjs$/.test(f)) await import('/app/dist/' + f)" \
 && chmod -R a-w /app/.compile-cache
ENTRYPOINT ["/app/bin/dcctl-entrypoint"]
CMD ["deploy"]
