/**
 * deploy/overlays/webhook is deployable as it stands, without cert-manager: hack/webhook-certs.sh
 * makes the serving certificate and its CA, the overlay turns them into the controller's mounted
 * Secret and the webhook's caBundle, and the whole overlay passes the real kube-apiserver's
 * admission (server-side dry run). Works on a copy of deploy/ and crds/ so the worktree's certs/
 * stays untouched. test/e2e/webhook.test.ts runs the webhook itself.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { kubectl } from '../support/kube.js';
import { useOverlayCopy } from '../support/overlay.js';

interface Doc { kind: string; metadata: { name: string; namespace?: string }; spec?: any; data?: Record<string, string>; type?: string; webhooks?: any[] } // eslint-disable-line @typescript-eslint/no-explicit-any

describe('deploy/overlays/webhook with hack/webhook-certs.sh', () => {
  const { root, overlay, certs } = useOverlayCopy('webhook', { withHack: true });

  it('without certificates kustomize names the missing file', () => {
    const r = spawnSync('kubectl', ['kustomize', overlay()], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('certs/tls.crt');
  });

  it('mounts the serving Secret into the controller, which serves the webhook from it, and gives the webhook a caBundle that verifies it for the Service name', () => {
    // The copy's own script, with no directory: its default is the overlay's certs/.
    execFileSync('bash', [path.join(root(), 'hack/webhook-certs.sh')], { stdio: 'ignore' });
    const docs = (yaml.loadAll(kubectl(['kustomize', overlay()])) as Doc[]).filter(Boolean);
    const find = (kind: string, name: string) => docs.filter((d) => d.kind === kind && d.metadata.name.startsWith(name));
    const [config] = find('ValidatingWebhookConfiguration', 'template.deploymentconfigs.dcctl.io');
    const hook = config!.webhooks![0];
    const ca = readFileSync(path.join(certs(), 'ca.crt'));
    expect(Buffer.from(String(hook.clientConfig.caBundle).replace(/\s/g, ''), 'base64').equals(ca)).toBe(true);
    expect(hook.clientConfig.service).toEqual({ name: 'dcctl-webhook', namespace: 'deploymentconfig-controller', path: '/validate-deploymentconfigs', port: 443 });
    expect(hook.failurePolicy).toBe('Ignore');
    expect(hook.sideEffects).toBe('None');
    const secrets = find('Secret', 'dcctl-webhook-serving-cert');
    expect(secrets).toHaveLength(1);
    const served = new X509Certificate(Buffer.from(secrets[0]!.data!['tls.crt']!, 'base64'));
    expect(served.verify(new X509Certificate(ca).publicKey)).toBe(true);
    expect(served.checkHost('dcctl-webhook.deploymentconfig-controller.svc')).toBe('dcctl-webhook.deploymentconfig-controller.svc');
    expect(find('Secret', 'dcctl-webhook-ca')).toEqual([]);
    const [service] = find('Service', 'dcctl-webhook');
    const [controller] = find('Deployment', 'deploymentconfig-controller');
    const pod = controller!.spec.template.spec;
    expect(service!.spec.selector).toEqual(controller!.spec.selector.matchLabels);
    expect(pod.containers[0].ports).toContainEqual({ name: 'https-webhook', containerPort: 9443 });
    expect(service!.spec.ports).toEqual([{ name: 'https-webhook', port: 443, targetPort: 'https-webhook' }]);
    expect(pod.containers[0].args).toEqual(expect.arrayContaining(['--webhook-bind-address=:9443', '--webhook-cert-dir=/etc/dcctl/webhook']));
    expect(pod.containers[0].volumeMounts).toContainEqual({ name: 'webhook-cert', mountPath: '/etc/dcctl/webhook', readOnly: true });
    expect(pod.volumes).toContainEqual({ name: 'webhook-cert', secret: { secretName: secrets[0]!.metadata.name } });
  });

  it('passes kube-apiserver\'s admission as a whole (server-side dry run)', () => {
    kubectl(['apply', '-f', '-'], 'apiVersion: v1\nkind: Namespace\nmetadata: {name: deploymentconfig-controller}\n');
    const out = kubectl(['apply', '--server-side', '--force-conflicts', '--dry-run=server', '-k', overlay()]);
    for (const line of [
      'validatingwebhookconfiguration.admissionregistration.k8s.io/template.deploymentconfigs.dcctl.io serverside-applied (server dry run)',
      'service/dcctl-webhook serverside-applied (server dry run)',
      'deployment.apps/deploymentconfig-controller serverside-applied (server dry run)',
    ]) expect(out).toContain(line);
    expect(out).toMatch(/^secret\/dcctl-webhook-serving-cert-\w+ serverside-applied \(server dry run\)$/m);
  });
});
