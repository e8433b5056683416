/**
 * deploy/overlays/aggregated is deployable as it stands, without cert-manager:
 * hack/apiserver-certs.sh makes the serving certificate and its CA, the overlay turns them into
 * the front's Secret and the APIService's caBundle, and the whole overlay passes the real
 * kube-apiserver's admission (server-side dry run: RBAC, Deployments, PDBs, CRDs, APIService).
 * Works on a copy of deploy/ and crds/ so the worktree's certs/ stays untouched.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { kubectl, repoDir } from '../support/kube.js';
import { useOverlayCopy } from '../support/overlay.js';

interface Doc { kind: string; metadata: { name: string; namespace?: string; annotations?: Record<string, string> }; spec?: any; data?: Record<string, string>; type?: string } // eslint-disable-line @typescript-eslint/no-explicit-any

describe('deploy/overlays/aggregated with hack/apiserver-certs.sh', () => {
  const { overlay, certs } = useOverlayCopy('aggregated');

  it('without certificates kustomize names the missing file and the script to run', () => {
    const r = spawnSync('kubectl', ['kustomize', overlay()], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('certs/tls.crt');
  });

  it('renders the serving Secret and a caBundle that verifies it for the Service name; the CA Secret is never applied', () => {
    execFileSync('bash', [path.join(repoDir, 'hack/apiserver-certs.sh'), certs()], { stdio: 'ignore' });
    const docs = (yaml.loadAll(kubectl(['kustomize', overlay()])) as Doc[]).filter(Boolean);
    const find = (kind: string, name: string) => docs.filter((d) => d.kind === kind && d.metadata.name.startsWith(name));
    const [apiService] = find('APIService', 'v1.apps.openshift.io');
    const ca = readFileSync(path.join(certs(), 'ca.crt'));
    expect(Buffer.from(String(apiService!.spec.caBundle).replace(/\s/g, ''), 'base64').equals(ca)).toBe(true);
    expect(apiService!.spec.service).toEqual({ name: 'dcctl-apiserver', namespace: 'deploymentconfig-controller', port: 443 });
    const secrets = find('Secret', 'dcctl-apiserver-serving-cert');
    expect(secrets).toHaveLength(1);
    expect(secrets[0]!.type).toBe('kubernetes.io/tls');
    const served = new X509Certificate(Buffer.from(secrets[0]!.data!['tls.crt']!, 'base64'));
    expect(served.verify(new X509Certificate(ca).publicKey)).toBe(true);
    expect(served.checkHost('dcctl-apiserver.deploymentconfig-controller.svc')).toBe('dcctl-apiserver.deploymentconfig-controller.svc');
    expect(find('Secret', 'dcctl-apiserver-ca')).toEqual([]);
    const [front] = find('Deployment', 'dcctl-apiserver');
    expect(front!.spec.replicas).toBe(2);
    expect(front!.spec.template.spec.volumes).toContainEqual({ name: 'serving-cert', secret: { secretName: secrets[0]!.metadata.name } });
    expect(find('PodDisruptionBudget', 'dcctl-apiserver')).toHaveLength(1);
    const [controller] = find('Deployment', 'deploymentconfig-controller');
    expect(controller!.spec.template.spec.containers[0].args).toContain('--dc-group=apps.dcctl.io');
    expect(find('CustomResourceDefinition', 'deploymentconfigs.apps.openshift.io')).toEqual([]);
    // Its admission policy goes with it; the image policy stays.
    expect(find('ValidatingAdmissionPolicy', 'deploymentconfigs.apps.openshift.io')).toEqual([]);
    expect(find('ValidatingAdmissionPolicyBinding', 'deploymentconfigs.apps.openshift.io')).toEqual([]);
  });

  it('passes kube-apiserver\'s admission as a whole (server-side dry run)', () => {
    kubectl(['apply', '-f', '-'], 'apiVersion: v1\nkind: Namespace\nmetadata: {name: deploymentconfig-controller}\n');
    const out = kubectl(['apply', '--server-side', '--force-conflicts', '--dry-run=server', '-k', overlay()]);
    for (const line of [
      'apiservice.apiregistration.k8s.io/v1.apps.openshift.io serverside-applied (server dry run)',
      'customresourcedefinition.apiextensions.k8s.io/deploymentconfigs.apps.dcctl.io serverside-applied (server dry run)',
      'deployment.apps/dcctl-apiserver serverside-applied (server dry run)',
      'deployment.apps/deploymentconfig-controller serverside-applied (server dry run)',
      'clusterrolebinding.rbac.authorization.k8s.io/dcctl-apiserver:impersonator serverside-applied (server dry run)',
    ]) expect(out).toContain(line);
    expect(out).toMatch(/^secret\/dcctl-apiserver-serving-cert-\w+ serverside-applied \(server dry run\)$/m);
  });
});
