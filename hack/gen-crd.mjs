#!/usr/bin/env node
// Generates crds/deploymentconfig.yaml: the apps.openshift.io/v1 DeploymentConfig CRD, and
// crds/storage/deploymentconfig.yaml: the same schema as deploymentconfigs.apps.dcctl.io, the
// storage of API mode (docs/apiserver.md: no short name or category, so `kubectl get dc|all`
// name only the aggregated resource).
//
//   node hack/gen-crd.mjs [--openapi <api__v1_openapi.json>] [--out <file>] [--check]
//
// The pod template, EnvVar, ResourceRequirements and ObjectReference schemas are inlined from the
// upstream Kubernetes OpenAPI v3 document (k8s.io/kubernetes@$K8S_VERSION in the Go module cache,
// fetched with `go mod download`), so the template accepts exactly what a real pod template does.
// OpenShift's validation.go is expressed as OpenAPI constraints plus CEL rules reported at the
// offending field (fieldPath/reason); see docs/crd.md for what is enforced where and why.
// The rules that read the whole spec (selector against template labels, containers, hooks) are not
// in the CRD but in crds/deploymentconfig-policy.yaml, a ValidatingAdmissionPolicy of the main
// resource only: kube-apiserver evaluates a CRD's CEL rules over the whole object on every /status
// write too, where the spec cannot change, and these rules made each DC status write cost ~45% more
// than a Deployment's (docs/design.md §2.3). The storage CRD of API mode keeps them in its schema.
// It also writes src/import/crd-schemas.generated.ts: the field skeletons of this CRD and of
// crds/imagestream.yaml, with which `dcctl import` removes fields the schemas do not know; and
// src/apis/quantities.generated.ts: where a DC holds Quantities (src/apis/quantities.ts).
// src/apis/string-maps.generated.ts: where a DC's spec holds maps of strings (src/apis/nulls.ts).
// --check exits 1 when a file on disk differs from what would be generated (for CI).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, mkdtempSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jsYaml from 'js-yaml';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const argValue = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const outFile = path.resolve(repo, argValue('--out') ?? 'crds/deploymentconfig.yaml');

function k8sVersion() {
  if (process.env.K8S_VERSION) return process.env.K8S_VERSION;
  const env = path.join(repo, 'hack/versions.env');
  const m = existsSync(env) ? /^K8S_VERSION=\$?\{?[A-Z_]*:?-?(v[0-9.]+)/m.exec(readFileSync(env, 'utf8')) : null;
  return m?.[1] ?? 'v1.36.3';
}

function openapiPath() {
  const explicit = argValue('--openapi') ?? process.env.K8S_OPENAPI;
  if (explicit) return explicit;
  const version = k8sVersion();
  // Outside any module so `go` does not touch a go.mod; the module cache is locked by go itself.
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'gen-crd-'));
  const out = execFileSync('go', ['mod', 'download', '-json', `k8s.io/kubernetes@${version}`], {
    cwd, encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod', GOWORK: 'off', GOTOOLCHAIN: 'local' }, maxBuffer: 1 << 24,
  });
  const dir = JSON.parse(out).Dir;
  if (!dir) throw new Error(`go mod download did not report a Dir for k8s.io/kubernetes@${version}`);
  return path.join(dir, 'api/openapi-spec/v3/api__v1_openapi.json');
}

// ------------------------------------------------------------------ upstream schema inlining
const doc = JSON.parse(readFileSync(openapiPath(), 'utf8'));
const upstream = doc.components.schemas;
const refName = (ref) => ref.split('/').pop();

const QUANTITY_PATTERN = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
// Types whose upstream schema is not structural (oneOf) or that we deliberately replace.
const special = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': () => ({ anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true }),
  'io.k8s.apimachinery.pkg.api.resource.Quantity': () => ({ anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: QUANTITY_PATTERN, 'x-kubernetes-int-or-string': true }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': () => ({ type: 'string', format: 'date-time' }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': () => ({ type: 'string', format: 'date-time' }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': () => templateMetadata(),
};

// JSONSchemaProps fields a CRD accepts that we keep from upstream (descriptions are dropped to
// stay far below the 256 KiB last-applied-configuration annotation limit of client-side apply).
const KEEP = ['type', 'format', 'enum', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems',
  'maxItems', 'minProperties', 'maxProperties', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type'];
const isZero = (v) => v === '' || v === 0 || v === false;

/** Inlines `$ref`/`allOf` recursively into a structural schema (throws on cycles). */
function inline(node, stack = []) {
  if (node.$ref || (node.allOf && node.allOf.length === 1 && node.allOf[0].$ref)) {
    const name = refName(node.$ref ?? node.allOf[0].$ref);
    if (stack.includes(name)) throw new Error(`recursive schema ${[...stack, name].join(' -> ')}`);
    const target = special[name] ? special[name]() : inline(upstream[name], [...stack, name]);
    // Only non-zero scalar defaults carry meaning; `{}`/""/0 defaults just mirror Go zero values
    // and would materialise noise (or fail validation for objects with required fields).
    if (node.default !== undefined && typeof node.default !== 'object' && !isZero(node.default)) return { ...target, default: node.default };
    return target;
  }
  if (node.allOf || node.oneOf || node.anyOf) throw new Error(`unsupported composition in upstream schema: ${JSON.stringify(node).slice(0, 200)}`);
  const out = {};
  for (const k of KEEP) if (node[k] !== undefined) out[k] = node[k];
  if (node.default !== undefined && typeof node.default !== 'object' && !isZero(node.default)) out.default = node.default;
  if (node.properties) {
    out.type = 'object';
    out.properties = {};
    for (const [k, v] of Object.entries(node.properties)) out.properties[k] = inline(v, stack);
    if (node.required?.length) out.required = [...node.required];
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    out.type = 'object';
    out.additionalProperties = inline(node.additionalProperties, stack);
  }
  if (node.items) {
    out.items = inline(node.items, stack);
    const keys = node['x-kubernetes-list-map-keys'];
    if (node['x-kubernetes-list-type'] === 'map' && keys) {
      // A CRD list-map key must be required or defaulted: keep the zero default for such keys.
      const item = node.items.$ref || node.items.allOf ? upstream[refName(node.items.$ref ?? node.items.allOf[0].$ref)] : node.items;
      for (const key of keys) {
        if (out.items.required?.includes(key) || out.items.properties[key].default !== undefined) continue;
        const d = item.properties[key]?.default;
        if (d === undefined) throw new Error(`list-map key ${key} is neither required nor defaulted`);
        out.items.properties[key] = { ...out.items.properties[key], default: d };
      }
    }
  }
  if (node.type === 'object' && !node.properties && !node.additionalProperties) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (!out.type && !out['x-kubernetes-int-or-string']) throw new Error(`schema without type: ${JSON.stringify(node).slice(0, 200)}`);
  return out;
}
const ref = (name) => inline({ $ref: `#/components/schemas/${name}` });

// ------------------------------------------------------------------ small schema helpers
const str = (extra = {}) => ({ type: 'string', ...extra });
const int32 = (extra = {}) => ({ type: 'integer', format: 'int32', maximum: 2147483647, ...extra });
const int64 = (extra = {}) => ({ type: 'integer', format: 'int64', ...extra });
const bool = () => ({ type: 'boolean' });
const obj = (properties, extra = {}) => ({ type: 'object', properties, ...extra });
const stringMap = (extra = {}) => ({ type: 'object', additionalProperties: { type: 'string' }, ...extra });
const rule = (r, message, extra = {}) => ({ rule: r, ...(message.startsWith('=') ? { messageExpression: message.slice(1) } : { message }), ...extra });

const LABEL_KEY_MAX = 317; // 253 (prefix) + 1 + 63 (name)
const LABEL_VALUE_MAX = 63;
const labelMap = () => ({ type: 'object', maxProperties: 64, additionalProperties: { type: 'string', maxLength: LABEL_VALUE_MAX } });
const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const C_IDENTIFIER = '^[A-Za-z_][A-Za-z0-9_]*$';
// imageapi.SplitImageStreamTag + ValidateImageStreamName: "<stream>:<tag>", stream a path-segment
// name made of the characters an image repository name may contain.
// An ImageChange trigger's `from.name`, as OpenShift's validateImageStreamTagName checked it:
// SplitImageStreamTag cuts at the first colon, the part before it must be a stream name, and the
// tag after it is not checked at all (an empty one means latest; `172.30.1.5:5000/ns/app`, a
// registry host written where a stream belongs, passes and never resolves).
const ISTAG_NAME = '^[a-z0-9]+(([._]|__|[-]*)[a-z0-9]+)*:.*$';

const MAX_CONTAINERS = 64; // CEL cost bound; real pods have a handful
const MAX_TRIGGERS = 32;
const MAX_CONTAINER_NAMES = 64;
const MAX_TAG_IMAGES = 32;

/** Pod template metadata: the parts of ObjectMeta that are meaningful in a template. */
function templateMetadata() {
  return obj({
    name: str({ maxLength: 253 }),
    generateName: str({ maxLength: 253 }),
    namespace: str({ maxLength: 63 }),
    // Distinct from labelMap(): the CEL selector rule is the only reader, bounded by maxProperties.
    labels: { type: 'object', maxProperties: 256, additionalProperties: { type: 'string', maxLength: LABEL_VALUE_MAX } },
    annotations: stringMap(),
    finalizers: { type: 'array', items: str(), 'x-kubernetes-list-type': 'set' },
    // `oc get -o yaml` exports carry `creationTimestamp: null`. A create or a client-side apply
    // prunes it; a server-side apply (kubectl --server-side, Flux, Argo CD) refused it unless it is
    // nullable, where OpenShift's typed apply read it as absent. Stored as null, it means nothing:
    // templates are compared with nulls left out (src/deploymentconfig/triggers.ts).
    creationTimestamp: str({ format: 'date-time', nullable: true }),
  });
}

// ------------------------------------------------------------------ list uniqueness audit
// Upstream marks many pod lists `x-kubernetes-list-type: map|set`. On a CRD that is a uniqueness
// rule the apiserver enforces ("Duplicate value"), but kube-apiserver's own pod validation
// (pkg/apis/core/validation/validation.go) enforces uniqueness only for the lists below; pods,
// RCs and OpenShift DCs with duplicates elsewhere (env names, ports, hostAliases, ...) are
// accepted. Every other map/set list is made atomic, so the CRD accepts what a pod template
// accepts. Paths are relative to the DC spec; `[]` is "every item".
const NATIVE_UNIQUE = {
  'template.spec.containers': 'validateContainers: names unique across containers and init containers (Duplicate)',
  'template.spec.initContainers': 'validateInitContainers: names unique across init and regular containers (Duplicate)',
  'template.spec.ephemeralContainers': 'ValidatePodTemplateSpec forbids ephemeral containers in a template altogether',
  'template.spec.volumes': 'ValidateVolumes: volume names unique (Duplicate)',
  'template.spec.resourceClaims': 'validatePodResourceClaims: claim names unique (Duplicate)',
  'template.spec.schedulingGates': 'validateSchedulingGates: gate names unique (Duplicate)',
  'template.spec.topologySpreadConstraints': 'ValidateSpreadConstraintNotRepeat: {topologyKey, whenUnsatisfiable} unique (Duplicate)',
  'template.spec.resources.claims': 'validateResourceClaimNames: claim names unique (Duplicate)',
  'template.spec.containers[].volumeMounts': 'ValidateVolumeMounts: mountPath must be unique',
  'template.spec.initContainers[].volumeMounts': 'ValidateVolumeMounts: mountPath must be unique',
  'template.spec.ephemeralContainers[].volumeMounts': 'ValidateVolumeMounts: mountPath must be unique',
  'template.spec.containers[].volumeDevices': 'ValidateVolumeDevices: devicePath must be unique',
  'template.spec.initContainers[].volumeDevices': 'ValidateVolumeDevices: devicePath must be unique',
  'template.spec.ephemeralContainers[].volumeDevices': 'ValidateVolumeDevices: devicePath must be unique',
  'template.spec.containers[].resources.claims': 'validateResourceClaimNames: claim names unique (Duplicate)',
  'template.spec.initContainers[].resources.claims': 'validateResourceClaimNames: claim names unique (Duplicate)',
  'template.spec.ephemeralContainers[].resources.claims': 'validateResourceClaimNames: claim names unique (Duplicate)',
  'strategy.resources.claims': 'validateResourceClaimNames (OpenShift validates strategy.resources as container resources)',
};

/** Makes every map/set list not in NATIVE_UNIQUE atomic; returns the paths it changed. */
function keepNativeUniqueness(node, at = '', changed = []) {
  if (!node || typeof node !== 'object') return changed;
  const type = node['x-kubernetes-list-type'];
  if ((type === 'map' || type === 'set') && !NATIVE_UNIQUE[at]) {
    delete node['x-kubernetes-list-type'];
    delete node['x-kubernetes-list-map-keys'];
    changed.push(at);
  }
  for (const [k, v] of Object.entries(node.properties ?? {})) keepNativeUniqueness(v, at ? `${at}.${k}` : k, changed);
  if (node.items) keepNativeUniqueness(node.items, `${at}[]`, changed);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') keepNativeUniqueness(node.additionalProperties, `${at}{}`, changed);
  return changed;
}

/** PodTemplateSpec from upstream, with CEL cost bounds added on the lists our rules iterate. */
function podTemplate() {
  const t = ref('io.k8s.api.core.v1.PodTemplateSpec');
  const spec = t.properties.spec;
  for (const list of ['containers', 'initContainers']) {
    spec.properties[list].maxItems = MAX_CONTAINERS;
    const container = spec.properties[list].items.properties;
    container.name.maxLength = 63;
    // Upstream's OpenAPI carries no enums; these two are cheap, stable and what pod validation
    // enforces, so a typo fails at admission instead of at RC creation. Pod validation runs after
    // defaulting, which makes "" the default (TCP; Always for :latest, else IfNotPresent), so the
    // native API, and OpenShift's DC API with it, takes "": so does the CRD, and the RC gets it.
    container.ports.items.properties.protocol.enum = ['TCP', 'UDP', 'SCTP', ''];
    container.imagePullPolicy.enum = ['Always', 'IfNotPresent', 'Never', ''];
  }
  t.required = ['spec'];
  return t;
}

/** EnvVar from upstream, with OpenShift's C-identifier rule for hook and custom-strategy env. */
function cIdentifierEnv() {
  const env = ref('io.k8s.api.core.v1.EnvVar');
  env.properties.name = { ...env.properties.name, minLength: 1, pattern: C_IDENTIFIER };
  // Atomic, not a list-map keyed by name: OpenShift's validateEnv has no uniqueness rule, and a
  // container's env may repeat a name (the last one wins).
  return { type: 'array', items: env, maxItems: 256 };
}

const objectReference = () => ref('io.k8s.api.core.v1.ObjectReference');

function lifecycleHook() {
  const to = objectReference();
  to.required = ['name'];
  to['x-kubernetes-validations'] = [rule("has(self.kind) && self.kind == 'ImageStreamTag'", "Must be 'ImageStreamTag'", { fieldPath: '.kind', reason: 'FieldValueInvalid' })];
  return obj({
    // Abort, Retry or Ignore; OpenShift's validation asked only for a value, so it stored any
    // other (`ignore` is common in real templates), and the deployer let such a hook's failure end
    // the rollout without the Failed event. `dcctl import` says so.
    failurePolicy: str({ minLength: 1 }),
    execNewPod: obj({
      command: { type: 'array', items: str(), minItems: 1 },
      env: cIdentifierEnv(),
      containerName: str({ maxLength: 63 }),
      volumes: { type: 'array', items: str({ minLength: 1 }) },
    }, { required: ['command'] }),
    tagImages: {
      type: 'array', maxItems: MAX_TAG_IMAGES,
      items: obj({ containerName: str({ maxLength: 63 }), to }, { required: ['to'] }),
    },
  }, {
    required: ['failurePolicy'],
    'x-kubernetes-validations': [
      rule("!(has(self.execNewPod) && has(self.tagImages) && size(self.tagImages) > 0)", "only one of 'execNewPod' or 'tagImages' may be specified"),
      rule('has(self.execNewPod) || (has(self.tagImages) && size(self.tagImages) > 0)', 'One of execNewPod or tagImages must be specified'),
    ],
  });
}

const intOrPercent = (extraRules = []) => ({
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  'x-kubernetes-int-or-string': true,
  maxLength: 16,
  'x-kubernetes-validations': [
    rule("type(self) == int ? self >= 0 : self.matches('^[0-9]+%$')", 'value should be int(5) or percentage(5%), and must be non-negative'),
    ...extraRules,
  ],
});

// A value is "zero" the way OpenShift's getIntOrPercentValue sees it: 0 or "0%".
const isZeroIntOrPercent = (x) => `(type(${x}) == int ? ${x} == 0 : ${x}.matches('^0+%$'))`;

function strategy() {
  const resources = ref('io.k8s.api.core.v1.ResourceRequirements');
  // The deadline rule mirrors validation.go after OpenShift's defaulting: a Rolling (Recreate)
  // strategy always has rollingParams (recreateParams), whose timeoutSeconds defaults to 600.
  // (cel.bind and optional `.?` are not available to the default-value check, so no bindings.)
  const timeout = "(has(self.rollingParams) ? (has(self.rollingParams.timeoutSeconds) ? self.rollingParams.timeoutSeconds : 600) : "
    + "(has(self.type) && self.type in ['Rolling', ''] ? 600 : (has(self.recreateParams) ? (has(self.recreateParams.timeoutSeconds) ? self.recreateParams.timeoutSeconds : 600) : "
    + "(has(self.type) && self.type == 'Recreate' ? 600 : 0))))";
  return obj({
    type: str({
      default: 'Rolling',
      maxLength: 64,
      // "" is Rolling: OpenShift's defaulting sets an empty type before it validates (the
      // controllers read it the same way, src/apps/defaults.ts).
      'x-kubernetes-validations': [rule("self in ['Rolling', 'Recreate', 'Custom', '']",
        'unsupported strategy type, use "Custom" instead and specify your own strategy')],
    }),
    customParams: obj({
      image: str(),
      environment: cIdentifierEnv(),
      command: { type: 'array', items: str() },
    }),
    recreateParams: obj({
      timeoutSeconds: int64({ minimum: 1, default: 600 }),
      pre: lifecycleHook(), mid: lifecycleHook(), post: lifecycleHook(),
    }),
    rollingParams: obj({
      updatePeriodSeconds: int64({ minimum: 1, default: 1 }),
      intervalSeconds: int64({ minimum: 1, default: 1 }),
      timeoutSeconds: int64({ minimum: 1, default: 600 }),
      maxUnavailable: intOrPercent([
        rule("type(self) == int || !self.matches('^[0-9]+%$') || self.matches('^0*([0-9]{1,2}|100)%$')",
          'should not be more than 100%'),
      ]),
      maxSurge: intOrPercent(),
      pre: lifecycleHook(), post: lifecycleHook(),
    }, {
      'x-kubernetes-validations': [
        rule(`!(has(self.maxSurge) && has(self.maxUnavailable)) || !(${isZeroIntOrPercent('self.maxSurge')} && ${isZeroIntOrPercent('self.maxUnavailable')})`,
          'cannot be 0 when maxSurge is 0 as well', { fieldPath: '.maxUnavailable', reason: 'FieldValueInvalid' }),
      ],
    }),
    resources,
    labels: { ...labelMap(), additionalProperties: { type: 'string', maxLength: LABEL_VALUE_MAX } },
    annotations: stringMap(),
    activeDeadlineSeconds: int64({ minimum: 0, default: 21600 }),
  }, {
    'x-kubernetes-validations': [
      rule("!has(self.type) || self.type != 'Custom' || has(self.customParams)",
        'customParams are required for the Custom strategy', { fieldPath: '.customParams', reason: 'FieldValueRequired' }),
      rule(`!has(self.activeDeadlineSeconds) || ${timeout} == 0 || self.activeDeadlineSeconds > ${timeout}`,
        // Static messages: messageExpressions with string(int) blow the CRD's CEL cost budget.
        "activeDeadlineSeconds must be greater than timeoutSeconds (rollingParams' or recreateParams', 600s by default)",
        { fieldPath: '.activeDeadlineSeconds', reason: 'FieldValueInvalid' }),
    ],
  });
}

function trigger() {
  const from = objectReference();
  from.required = ['name'];
  from.properties.kind = { ...from.properties.kind, default: 'ImageStreamTag' };
  from.properties.name = { ...from.properties.name, maxLength: 512 };
  // An OpenAPI pattern, not CEL: a regex this size over 32 triggers exceeds the CEL cost budget.
  from.properties.namespace = { ...from.properties.namespace, maxLength: 253, pattern: `^$|${DNS_SUBDOMAIN}` };
  from['x-kubernetes-validations'] = [
    // "" is ImageStreamTag: OpenShift's defaulting sets an empty kind before it validates, as the
    // controllers read it (src/apps/defaults.ts); the schema default fills only an absent kind.
    rule("self.kind in ['ImageStreamTag', '']", 'kind must be an ImageStreamTag', { fieldPath: '.kind', reason: 'FieldValueInvalid' }),
    rule(`self.name.matches('${ISTAG_NAME}')`, 'must be in the form of <name>:<tag>', { fieldPath: '.name', reason: 'FieldValueInvalid' }),
  ];
  return obj({
    // No enum: OpenShift's validateTrigger only requires a type; an unknown one never fires.
    type: str({ minLength: 1, maxLength: 64 }),
    imageChangeParams: obj({
      automatic: bool(),
      containerNames: { type: 'array', maxItems: MAX_CONTAINER_NAMES, items: str({ maxLength: 63 }) },
      from,
      lastTriggeredImage: str(),
    }, { required: ['from'] }),
  }, {
    required: ['type'],
    'x-kubernetes-validations': [
      rule("self.type != 'ImageChange' || has(self.imageChangeParams)",
        'required for an ImageChange trigger', { fieldPath: '.imageChangeParams', reason: 'FieldValueRequired' }),
      rule("self.type != 'ImageChange' || !has(self.imageChangeParams) || (has(self.imageChangeParams.containerNames) && size(self.imageChangeParams.containerNames) > 0)",
        'at least one container name is required', { fieldPath: '.imageChangeParams.containerNames', reason: 'FieldValueRequired' }),
    ],
  });
}

// Hook points in OpenShift order; `containerName` may be omitted only when the template has exactly
// one container (the controller then defaults it, as openshift-apiserver's defaulting does).
const HOOKS = [['recreateParams', 'pre'], ['recreateParams', 'mid'], ['recreateParams', 'post'], ['rollingParams', 'pre'], ['rollingParams', 'post']];

function hookRules() {
  const out = [];
  const containers = 'self.template.spec.containers';
  const single = `size(${containers}) == 1`;
  const named = (n) => `(${containers}.exists(c, c.name == ${n}) || (has(self.template.spec.initContainers) && self.template.spec.initContainers.exists(c, c.name == ${n})))`;
  // As OpenShift's validateDeploymentStrategy: recreateParams are validated for Recreate and
  // Custom, rollingParams for Rolling and Custom; leftovers of another strategy type are ignored.
  const type = "(has(self.strategy.type) && self.strategy.type != '' ? self.strategy.type : 'Rolling')";
  const checkedFor = { recreateParams: `${type} in ['Recreate', 'Custom']`, rollingParams: `${type} in ['Rolling', 'Custom']` };
  for (const [params, point] of HOOKS) {
    const p = `self.strategy.${params}.${point}`;
    const present = `has(self.template) && has(self.template.spec) && has(self.strategy) && ${checkedFor[params]} && has(self.strategy.${params}) && has(${p})`;
    out.push(rule(`!(${present} && has(${p}.execNewPod)) || (has(${p}.execNewPod.containerName) && size(${p}.execNewPod.containerName) > 0) || ${single}`,
      'may be omitted only when the template has exactly one container',
      { fieldPath: `.strategy.${params}.${point}.execNewPod.containerName`, reason: 'FieldValueRequired' }));
    out.push(rule(`!(${present} && has(${p}.tagImages)) || ${p}.tagImages.all(t, (has(t.containerName) && size(t.containerName) > 0) ? ${named('t.containerName')} : ${single})`,
      'every containerName must name a container or init container of the template (may be omitted only with exactly one container)',
      { fieldPath: `.strategy.${params}.${point}.tagImages`, reason: 'FieldValueInvalid' }));
  }
  return out;
}

function specRules() {
  const tmpl = 'has(self.template) && has(self.template.spec)';
  const labels = 'self.template.metadata.labels';
  const hasLabels = `has(self.template) && has(self.template.metadata) && has(${labels})`;
  const minReadyTimeout = "(has(self.strategy) && has(self.strategy.rollingParams) && has(self.strategy.rollingParams.timeoutSeconds)) ? self.strategy.rollingParams.timeoutSeconds : "
    + '((has(self.strategy) && has(self.strategy.recreateParams) && has(self.strategy.recreateParams.timeoutSeconds)) ? self.strategy.recreateParams.timeoutSeconds : 600)';
  const imageTriggered = (c) => `(has(self.triggers) && self.triggers.exists(t, t.type == 'ImageChange' && has(t.imageChangeParams) && has(t.imageChangeParams.containerNames) && ${c}.name in t.imageChangeParams.containerNames))`;
  return [
    rule(`(has(self.selector) && size(self.selector) > 0) || (${hasLabels} && size(${labels}) > 0)`,
      'selector cannot be empty (it defaults to spec.template.metadata.labels, which are empty as well)',
      { fieldPath: '.selector', reason: 'FieldValueRequired' }),
    // A null value is "" (nullableWhereOptional: OpenShift's decoder read a null string so); a
    // CRD rule types a map's values as strings, so it asks the value's type, not `== null`.
    rule(`!has(self.selector) || !has(self.template) || self.selector.all(k, ${hasLabels} && k in ${labels} && (type(${labels}[k]) == null_type ? '' : ${labels}[k]) == (type(self.selector[k]) == null_type ? '' : self.selector[k]))`,
      '`selector` does not match template `labels`',
      { fieldPath: '.template.metadata.labels', reason: 'FieldValueInvalid' }),
    // "" is Always: Kubernetes defaults an empty restartPolicy before OpenShift validates the template.
    rule(`!(${tmpl}) || !has(self.template.spec.restartPolicy) || self.template.spec.restartPolicy in ['Always', '']`,
      'Unsupported value: only "Always" is supported',
      { fieldPath: '.template.spec.restartPolicy', reason: 'FieldValueInvalid' }),
    rule(`!has(self.minReadySeconds) || (${minReadyTimeout}) <= 0 || self.minReadySeconds < (${minReadyTimeout})`,
      'must be less than the deployment timeout (rollingParams.timeoutSeconds, else recreateParams.timeoutSeconds, else 600s)',
      { fieldPath: '.minReadySeconds', reason: 'FieldValueInvalid' }),
    rule('!has(self.minReadySeconds) || !has(self.strategy) || !has(self.strategy.activeDeadlineSeconds) || self.minReadySeconds < self.strategy.activeDeadlineSeconds',
      'must be less than activeDeadlineSeconds (spec.strategy.activeDeadlineSeconds - used by the deployer pod)',
      { fieldPath: '.minReadySeconds', reason: 'FieldValueInvalid' }),
    rule(`!(${tmpl}) || self.template.spec.containers.all(c, (has(c.image) && size(c.image) > 0) || ${imageTriggered('c')})`,
      'every container needs an image (it may be empty only for a container named in an ImageChange trigger\'s containerNames)',
      { fieldPath: '.template.spec.containers', reason: 'FieldValueRequired' }),
    rule(`!(${tmpl}) || !has(self.template.spec.initContainers) || self.template.spec.initContainers.all(c, has(c.image) && size(c.image) > 0)`,
      'every init container needs an image',
      { fieldPath: '.template.spec.initContainers', reason: 'FieldValueRequired' }),
    ...hookRules(),
  ];
}

function spec() {
  const s = obj({
    // The nested defaults in full: the apiserver validates a default value as given.
    strategy: { ...strategy(), default: { type: 'Rolling', activeDeadlineSeconds: 21600 } },
    minReadySeconds: int32({ minimum: 0 }),
    // nil -> [ConfigChange] exactly like openshift-apiserver; an explicit [] is kept (manual only).
    triggers: { type: 'array', maxItems: MAX_TRIGGERS, items: trigger(), default: [{ type: 'ConfigChange' }] },
    // OpenShift's replicas is a plain int32 (no pointer, no omitempty): absent or null read as 0 and
    // every answer shows it. The default also keeps a server-side apply's null (Helm's
    // `replicas: {{ .Values.replicas }}` with no value) off the field the scale subresource reads.
    replicas: int32({ minimum: 0, default: 0 }),
    revisionHistoryLimit: int32({ minimum: 0, default: 10 }),
    test: bool(),
    paused: bool(),
    selector: labelMap(),
    template: podTemplate(),
  }, { required: ['template'] });
  keepNativeUniqueness(s);
  nullableWhereOptional(s);
  return s;
}

/**
 * Marks every optional field of the spec without a default `nullable`. OpenShift's typed API read
 * a null as an absent field, and so does a create or update of the CRD (it prunes nulls); a
 * server-side apply does not: it keeps a null it was sent (`env:` with no value, as YAML and Helm
 * write it) and makes one of an object emptied to `{}`, and the schema refused both ("must be of
 * type array"). A field with a default stays not nullable (a null would keep it from being
 * defaulted; the apply prunes and defaults it), and so does a required one (a null would satisfy
 * `required`). kube-apiserver's enum check refuses a null even when the enum lists it, so a
 * nullable field's enum becomes a rule, which is not evaluated for a null. The controllers read a
 * DC with its nulls dropped (src/apis/nulls.ts).
 */
function nullableWhereOptional(node, at = '') {
  // A null value in a map of strings (`labels: {tier: }`, Helm's `key: {{ .Values.x }}` unset):
  // OpenShift's decoder read it as "" (a create, an update and a server-side apply alike), where a
  // create of the CRD pruned the key and a server-side apply was refused. Nullable, it is stored as
  // null and every reader makes it "" (src/apis/nulls.ts, the string-map skeleton below).
  if (isStringMap(node)) node.additionalProperties.nullable = true;
  // A null value in a map of Quantities (`limits: {cpu: }`): OpenShift's decoder read it as the
  // zero Quantity and stored "0", as a native Deployment does; a create of the CRD pruned the key
  // (the container lost a limit it had on OpenShift) and a server-side apply was refused. Stored as
  // null, every reader makes it "0" (src/apis/nulls.ts, the quantity-map skeleton below).
  if (isQuantityMap(node)) node.additionalProperties.nullable = true;
  for (const [k, v] of Object.entries(node.properties ?? {})) {
    const path = at ? `${at}.${k}` : k;
    if (v.default === undefined && !node.required?.includes(k)) {
      v.nullable = true;
      if (v.enum) {
        v['x-kubernetes-validations'] = [...(v['x-kubernetes-validations'] ?? []),
          rule(`self in [${v.enum.map((e) => `'${e}'`).join(', ')}]`, `supported values: ${v.enum.map((e) => JSON.stringify(e)).join(', ')}`)];
        delete v.enum;
      }
    }
    nullableWhereOptional(v, path);
  }
  if (node.items) nullableWhereOptional(node.items, `${at}[]`);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') nullableWhereOptional(node.additionalProperties, `${at}{}`);
}

function status() {
  const nonNeg = () => int32({ minimum: 0 });
  const causeRef = objectReference();
  return obj({
    latestVersion: int64({
      minimum: 0,
      'x-kubernetes-validations': [
        rule('self >= oldSelf', 'latestVersion cannot be decremented'),
        rule('self <= oldSelf + 1', 'latestVersion can only be incremented by 1'),
      ],
    }),
    observedGeneration: int64({ minimum: 0, 'x-kubernetes-validations': [rule('self >= oldSelf', 'observedGeneration cannot be decremented')] }),
    replicas: nonNeg(),
    updatedReplicas: nonNeg(),
    availableReplicas: nonNeg(),
    unavailableReplicas: nonNeg(),
    readyReplicas: nonNeg(),
    details: obj({
      message: str(),
      causes: { type: 'array', items: obj({ type: str(), imageTrigger: obj({ from: causeRef }) }, { required: ['type'] }), 'x-kubernetes-list-type': 'atomic' },
    }),
    conditions: {
      type: 'array',
      'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'],
      items: obj({
        type: str(),
        status: str({ enum: ['True', 'False', 'Unknown'] }),
        lastUpdateTime: str({ format: 'date-time' }),
        lastTransitionTime: str({ format: 'date-time' }),
        reason: str(),
        message: str(),
      }, { required: ['type', 'status'] }),
    },
    selector: str(),
    lastInstantiateRequest: obj({
      id: str(),
      outcome: str({ enum: ['Triggered', 'NotTriggered', 'Rejected'] }),
      message: str(),
      latestVersion: int64({ minimum: 0 }),
      time: str({ format: 'date-time' }),
    }, { required: ['id', 'outcome', 'latestVersion', 'time'] }),
  });
}

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'deploymentconfigs.apps.openshift.io' },
  spec: {
    group: 'apps.openshift.io',
    scope: 'Namespaced',
    names: { plural: 'deploymentconfigs', singular: 'deploymentconfig', kind: 'DeploymentConfig', listKind: 'DeploymentConfigList', shortNames: ['dc'], categories: ['all'] },
    versions: [{
      name: 'v1',
      served: true,
      storage: true,
      subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
      additionalPrinterColumns: [
        { name: 'Revision', type: 'integer', jsonPath: '.status.latestVersion', description: 'status.latestVersion' },
        { name: 'Desired', type: 'integer', jsonPath: '.spec.replicas', description: 'spec.replicas' },
        { name: 'Current', type: 'integer', jsonPath: '.status.updatedReplicas', description: 'status.updatedReplicas (replicas of the latest RC)' },
        { name: 'Triggered By', type: 'string', jsonPath: '.spec.triggers[*].type', description: 'Trigger types (oc prints config/image(<istag>) instead)' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
      schema: {
        // metadata.name is declared (a CRD may constrain only name and generateName) so the rule's
        // fieldPath can point at it.
        openAPIV3Schema: obj({ apiVersion: str(), kind: str(), metadata: obj({ name: str() }), spec: spec(), status: status() }, {
          required: ['spec'],
          'x-kubernetes-validations': [
            // The DC name is a label value on its RCs and pods (deploymentconfig=<name>,
            // openshift.io/deployment-config.name=<name>): a longer name could never roll out.
            // RC names (<name>-<version>) may exceed 63; their label values are shortened (docs/crd.md, "Long names").
            rule(`size(self.metadata.name) <= ${LABEL_VALUE_MAX}`,
              `must be no more than ${LABEL_VALUE_MAX} characters: a DeploymentConfig's name is the value of the deploymentconfig label of its ReplicationControllers and pods, and label values are limited to ${LABEL_VALUE_MAX} characters`,
              { fieldPath: '.metadata.name', reason: 'FieldValueInvalid' }),
          ],
        }),
      },
    }],
  },
};

// ------------------------------------------------------------------ YAML emitter
// Plain scalars only for strings that cannot be misread; everything else is JSON-quoted (valid YAML).
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;
const scalar = (v) => (typeof v === 'string' ? (PLAIN.test(v) && !RESERVED.test(v) ? v : JSON.stringify(v)) : JSON.stringify(v));
function emit(v, indent = '') {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((x) => {
      if (x !== null && typeof x === 'object' && Object.keys(x).length > 0) {
        const body = emit(x, `${indent}  `).replace(/^\n\s*/, '');
        return `\n${indent}- ${body}`;
      }
      return `\n${indent}-${emit(x, `${indent}  `)}`;
    }).join('');
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, x]) => `\n${indent}${scalar(k)}:${emit(x, `${indent}  `)}`).join('');
  }
  return ` ${scalar(v)}`;
}

// ------------------------------------------------------------------ import skeletons
// A skeleton keeps only what pruning needs: `p` known properties, `i` list items, `a` map values,
// `x` any field goes (preserve-unknown-fields, embedded resources; what they declare keeps its
// type in `p`); a scalar is 1 (integer), 2 (number), 3 (boolean), 4 (string), 5 (base64) or 0 (any other:
// int-or-string, Quantities), for the scalar types import checks (src/import/prune.ts).
const scalarCode = (n) => (n.type === 'integer' ? 1 : n.type === 'number' ? 2 : n.type === 'boolean' ? 3 : n.type === 'string' && n.format === 'byte' ? 5
  : n.type === 'string' && n.format !== 'int-or-string' && !n['x-kubernetes-int-or-string'] ? 4 : 0);
function skeleton(n) {
  if (n['x-kubernetes-preserve-unknown-fields'] || n['x-kubernetes-embedded-resource']) {
    return n.properties ? { x: 1, p: Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, skeleton(v)])) } : { x: 1 };
  }
  const out = {};
  if (n.properties) out.p = Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, skeleton(v)]));
  if (n.items) out.i = skeleton(n.items);
  if (n.additionalProperties && typeof n.additionalProperties === 'object') out.a = skeleton(n.additionalProperties);
  return Object.keys(out).length > 0 ? out : scalarCode(n);
}
/** Upstream schema by name to skeleton, following $ref / allOf (ObjectMeta has no cycles). */
function upstreamSkeleton(name) {
  const node = upstream[name];
  const follow = (n) => {
    const r = n.$ref ?? (n.allOf?.length === 1 ? n.allOf[0].$ref : undefined);
    if (r) return upstreamSkeleton(refName(r));
    const out = {};
    if (n.properties) out.p = Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, follow(v)]));
    if (n.items) out.i = follow(n.items);
    if (n.additionalProperties && typeof n.additionalProperties === 'object') out.a = follow(n.additionalProperties);
    return Object.keys(out).length > 0 ? out : scalarCode(n);
  };
  return follow(node);
}
// Where a schema holds Quantities (resources, sizeLimit, overhead): 1 at a Quantity, else the
// same p/i/a shape down to them; undefined where there are none. A CRD takes a Quantity only as an
// integer or a string, where OpenShift's decoder also read a JSON number such as `cpu: 0.5`.
function isQuantity(n) { return n['x-kubernetes-int-or-string'] === true && n.pattern === QUANTITY_PATTERN; }
// The p/i/a shape down to the nodes `isLeaf` marks, 1 at each; undefined where there are none.
function leafSkeleton(n, isLeaf) {
  if (isLeaf(n)) return 1;
  const out = {};
  for (const [k, v] of Object.entries(n.properties ?? {})) {
    const q = leafSkeleton(v, isLeaf);
    if (q !== undefined) (out.p ??= {})[k] = q;
  }
  if (n.items) { const q = leafSkeleton(n.items, isLeaf); if (q !== undefined) out.i = q; }
  if (n.additionalProperties && typeof n.additionalProperties === 'object') {
    const q = leafSkeleton(n.additionalProperties, isLeaf);
    if (q !== undefined) out.a = q;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
const quantitySkeleton = (n) => leafSkeleton(n, isQuantity);
// Where a schema holds maps of strings (labels, annotations, selectors, nodeSelector, volume
// attributes): 1 at such a map, else the same p/i/a shape down to them.
function isStringMap(n) {
  return n.type === 'object' && !n.properties && typeof n.additionalProperties === 'object' && n.additionalProperties.type === 'string';
}
const stringMapSkeleton = (n) => leafSkeleton(n, isStringMap);
// Where a schema holds maps of Quantities (resources' limits and requests, overhead): 1 at such a map.
function isQuantityMap(n) {
  return n.type === 'object' && !n.properties && typeof n.additionalProperties === 'object' && isQuantity(n.additionalProperties);
}
function rootSkeleton(def) {
  const s = skeleton(def.spec.versions[0].schema.openAPIV3Schema);
  // A custom resource's metadata is ObjectMeta, whatever the schema says.
  s.p.metadata = upstreamSkeleton('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  return s;
}
const imageStreamCrd = jsYaml.load(readFileSync(path.join(repo, 'crds/imagestream.yaml'), 'utf8'));
const skeletons = {
  'apps.openshift.io/v1 DeploymentConfig': rootSkeleton(crd),
  'image.openshift.io/v1 ImageStream': rootSkeleton(imageStreamCrd),
};
const dcQuantities = quantitySkeleton(crd.spec.versions[0].schema.openAPIV3Schema);
const dcStringMaps = stringMapSkeleton(crd.spec.versions[0].schema.openAPIV3Schema.properties.spec);
const dcQuantityMaps = leafSkeleton(crd.spec.versions[0].schema.openAPIV3Schema.properties.spec, isQuantityMap);
const schemasFile = path.join(repo, 'src/import/crd-schemas.generated.ts');
const schemasTs = `// Generated by hack/gen-crd.mjs from crds/deploymentconfig.yaml and crds/imagestream.yaml; do not edit by hand.
import type { SchemaNode } from './prune.js';

/** Field skeletons of the CRDs this project serves, by \`apiVersion kind\` (see src/import/prune.ts). */
export const crdSchemas: Readonly<Record<string, SchemaNode>> = JSON.parse(${JSON.stringify(JSON.stringify(skeletons))});
`;
const quantitiesFile = path.join(repo, 'src/apis/quantities.generated.ts');
const quantitiesTs = `// Generated by hack/gen-crd.mjs from crds/deploymentconfig.yaml; do not edit by hand.
import type { MarkedSkeleton } from './marked-skeleton.js';

/** Where a DeploymentConfig holds Quantities (see src/apis/quantities.ts). */
export const DcQuantities: MarkedSkeleton = JSON.parse(${JSON.stringify(JSON.stringify(dcQuantities))});

/** Where a DeploymentConfig's spec holds maps of Quantities (see src/apis/nulls.ts). */
export const DcSpecQuantityMaps: MarkedSkeleton = JSON.parse(${JSON.stringify(JSON.stringify(dcQuantityMaps))});
`;

const stringMapsFile = path.join(repo, 'src/apis/string-maps.generated.ts');
const stringMapsTs = `// Generated by hack/gen-crd.mjs from crds/deploymentconfig.yaml; do not edit by hand.
import type { MarkedSkeleton } from './marked-skeleton.js';

/** Where a DeploymentConfig's spec holds maps of strings (see src/apis/nulls.ts). */
export const DcSpecStringMaps: MarkedSkeleton = JSON.parse(${JSON.stringify(JSON.stringify(dcStringMaps))});
`;

const header = '# Generated by hack/gen-crd.mjs from the Kubernetes OpenAPI document; do not edit by hand.\n';

// ------------------------------------------------------------------ spec rules as an admission policy
// The same rules, over `object.spec` instead of the spec node's `self`. A policy reports no
// field cause, so each message starts with the field it names and the kind of error, as the CRD's
// own errors print them (`spec.x: Required value: ...`).
// Matched on CREATE and on an UPDATE that changes the spec: the CRD's validation ratcheting lets
// an update that leaves an invalid spec untouched through, and so does this (matchConditions).
const POLICY_NAME = 'deploymentconfigs.apps.openshift.io';
// A policy sees a null field as set (a CRD rule's has() does not), and the schema keeps nulls
// (nullableWhereOptional): each has() also asks for a value, so a null reads as absent.
const specExpr = (r) => r.replace(/\bself\b/g, 'object.spec').replace(/\bhas\(([^()]+)\)/g, '(has($1) && $1 != null)');
const errorKind = { FieldValueRequired: 'Required value', FieldValueInvalid: 'Invalid value' };
const policyMessage = (r) => `spec${r.fieldPath}: ${r.message.startsWith('Unsupported value: ') ? '' : `${errorKind[r.reason]}: `}${r.message}`;
/** What both admission policies match: creates and updates of DCs, not their /status writes. */
const dcWrites = () => ({
  resourceRules: [{ apiGroups: ['apps.openshift.io'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deploymentconfigs'] }],
});
const policy = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: POLICY_NAME },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: dcWrites(),
    matchConditions: [{ name: 'spec-created-or-changed', expression: "request.operation == 'CREATE' || object.spec != oldObject.spec" }],
    validations: specRules().map((r) => ({ expression: specExpr(r.rule), message: policyMessage(r), reason: 'Invalid' })),
  },
};
const policyBinding = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: POLICY_NAME },
  spec: { policyName: POLICY_NAME, validationActions: ['Deny'] },
};
const policyFile = path.resolve(path.dirname(outFile), 'deploymentconfig-policy.yaml');
const policyYaml = `${header}# The DeploymentConfig CRD's rules that read the whole spec (hack/gen-crd.mjs, docs/crd.md): install with the CRD.\n---${emit(policy)}\n---${emit(policyBinding)}\n`;

// ------------------------------------------------------------------ fractional Quantities (kube >= 1.36)
// OpenShift's decoder read a JSON number at a Quantity like the same digits in a string (`cpu: 0.5`
// is 500m); a CRD schema takes a Quantity only as an integer or a string (docs/crd.md). On
// Kubernetes 1.36 and later a MutatingAdmissionPolicy (admissionregistration.k8s.io/v1) writes each
// such number as its string before the schema sees it, as API mode's front and `dcctl import` do.
// Optional (crds/optional/, not in the kustomization): older clusters do not serve that API.
// One JSON patch expression per place the DC holds Quantities (the quantity skeleton above). A
// policy's has() is true for a null, and the optional fields are nullable: each step asks for a value.
// The patch expressions down a skeleton: `leaf` at a node marked 1, `mapValues` at a map whose
// values are marked (`a: 1`); each step of the way asks for a value.
function patchExprs(node, cel, ptr, leaf, mapValues, depth = 0) {
  if (node === 1) return [leaf(cel, ptr, `k${depth}`)];
  const out = [];
  for (const [k, child] of Object.entries(node.p ?? {})) {
    const c = `${cel}.${k}`;
    for (const e of patchExprs(child, c, `${ptr} + '/${k}'`, leaf, mapValues, depth)) out.push(`((has(${c}) && ${c} != null) ? ${e} : [])`);
  }
  if (node.i !== undefined) {
    const v = `i${depth}`;
    for (const e of patchExprs(node.i, `${cel}[${v}]`, `${ptr} + '/' + string(${v})`, leaf, mapValues, depth + 1)) out.push(`lists.range(size(${cel})).map(${v}, ${e}).flatten()`);
  }
  if (node.a !== undefined) {
    if (node.a !== 1 || !mapValues) throw new Error(`a map of unmarked values at ${ptr}: not supported`);
    out.push(mapValues(cel, ptr, `k${depth}`));
  }
  return out;
}
// A Quantity written as a fractional number → its string.
const quantityPatchExprs = (node, cel, ptr) => patchExprs(node, cel, ptr,
  (c, p) => `(type(${c}) == double ? [JSONPatch{op: 'replace', path: ${p}, value: string(${c})}] : [])`,
  (c, p, v) => `${c}.filter(${v}, type(${c}[${v}]) == double).map(${v}, JSONPatch{op: 'replace', path: ${p} + '/' + jsonpatch.escapeKey(${v}), value: string(${c}[${v}])})`);
// A null value in a map of strings → "", in a map of Quantities → "0" (nullableWhereOptional), as
// OpenShift's decoder read it, so the stored DC shows what OpenShift showed; the readers make it so
// without the policy.
const nullMapValuePatchExprs = (node, cel, ptr, value) => patchExprs(node, cel, ptr,
  (c, p, v) => `${c}.filter(${v}, type(${c}[${v}]) == null_type).map(${v}, JSONPatch{op: 'replace', path: ${p} + '/' + jsonpatch.escapeKey(${v}), value: '${value}'})`);
const QUANTITY_POLICY = 'deploymentconfigs.apps.openshift.io-quantities';
const quantityPolicy = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicy',
  metadata: { name: QUANTITY_POLICY },
  spec: {
    // A convenience, not a guard: should an evaluation fail (a cost limit, a shape nobody foresaw),
    // the write goes on unchanged and the schema judges it, as without the policy.
    failurePolicy: 'Ignore',
    reinvocationPolicy: 'Never',
    matchConstraints: dcWrites(),
    // One mutation: kube-apiserver prepares the object for each mutation it evaluates, and one
    // expression per place (25) cost a realistic DC write twice as much again (measured).
    mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: [
      ...quantityPatchExprs(dcQuantities, 'object', "''"),
      ...nullMapValuePatchExprs({ p: { spec: dcStringMaps } }, 'object', "''", ''),
      ...nullMapValuePatchExprs({ p: { spec: dcQuantityMaps } }, 'object', "''", '0'),
    ].join(' + ') } }],
  },
};
const quantityBinding = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicyBinding',
  metadata: { name: QUANTITY_POLICY },
  spec: { policyName: QUANTITY_POLICY },
};
const quantityPolicyFile = path.resolve(path.dirname(outFile), 'optional', 'deploymentconfig-quantities-policy.yaml');
const quantityPolicyYaml = `${header}# Kubernetes 1.36 and later (MutatingAdmissionPolicy v1): a Quantity written as a fractional number\n# (\`cpu: 0.5\`), which OpenShift took, is stored as its string instead of refused, and a null value\n# in a map of strings (\`labels: {tier: }\`) as "", as OpenShift stored it (docs/crd.md).\n---${emit(quantityPolicy)}\n---${emit(quantityBinding)}\n`;

const storageCrd = structuredClone(crd);
// API mode: the front forwards every write to this CRD, which validates it; it keeps the spec rules
// in its schema (a policy would have to match the storage group as well).
storageCrd.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = specRules();
storageCrd.metadata.name = 'deploymentconfigs.apps.dcctl.io';
storageCrd.spec.group = 'apps.dcctl.io';
delete storageCrd.spec.names.shortNames;
delete storageCrd.spec.names.categories;
const outputs = [[outFile, crd], [path.resolve(path.dirname(outFile), 'storage', path.basename(outFile)), storageCrd]];
for (const [file, def] of outputs) {
  const yaml = `${header}---${emit(def)}\n`;
  const json = JSON.stringify(def);
  if (args.includes('--check')) {
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current !== yaml) { console.error(`${path.relative(repo, file)} is stale: run node hack/gen-crd.mjs`); process.exit(1); }
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, yaml);
  }
  console.error(`${path.relative(repo, file)}: ${yaml.length} bytes YAML, ${json.length} bytes JSON (client-side apply stores the JSON in an annotation; limit 262144)`);
}
for (const [file, text] of [[policyFile, policyYaml], [quantityPolicyFile, quantityPolicyYaml]]) {
  if (args.includes('--check')) {
    if ((existsSync(file) ? readFileSync(file, 'utf8') : '') !== text) { console.error(`${path.relative(repo, file)} is stale: run node hack/gen-crd.mjs`); process.exit(1); }
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  console.error(`${path.relative(repo, file)}: ${text.length} bytes`);
}
for (const [file, text] of [[schemasFile, schemasTs], [quantitiesFile, quantitiesTs], [stringMapsFile, stringMapsTs]]) {
  if (args.includes('--check')) {
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current !== text) { console.error(`${path.relative(repo, file)} is stale: run node hack/gen-crd.mjs`); process.exit(1); }
  } else {
    writeFileSync(file, text);
  }
  console.error(`${path.relative(repo, file)}: ${text.length} bytes`);
}
