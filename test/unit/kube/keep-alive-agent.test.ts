/**
 * One keep-alive agent per KubeConfig (src/kube/client.ts): client-node builds a new agent per
 * request, which made every request a new TLS connection.
 */
import { describe, expect, it } from '@jest/globals';
import { Agent as HttpsAgent } from 'node:https';
import { HttpMethod, KubeConfig, RequestContext } from '@kubernetes/client-node';
import { keepAliveAuthentication } from '../../../src/kube/client.js';

function kubeConfig(cluster: { server: string; proxyUrl?: string; skipTLSVerify?: boolean }): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', skipTLSVerify: false, ...cluster }],
    users: [{ name: 'u', token: 'secret-token' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}

async function agentOf(auth: ReturnType<typeof keepAliveAuthentication>): Promise<{ agent: unknown; authorization: string | undefined }> {
  const context = new RequestContext('https://k8s.example:6443/api/v1/pods', HttpMethod.GET);
  await auth.applySecurityAuthentication(context);
  return { agent: context.getAgent(), authorization: context.getHeaders()['Authorization'] };
}

describe('keepAliveAuthentication', () => {
  it('gives every request of one KubeConfig the same keep-alive agent, with client-node\'s headers', async () => {
    const kc = kubeConfig({ server: 'https://k8s.example:6443', skipTLSVerify: true });
    const a = await agentOf(keepAliveAuthentication(kc));
    const b = await agentOf(keepAliveAuthentication(kc));
    expect(a.agent).toBeInstanceOf(HttpsAgent);
    expect(a.agent).toBe(b.agent);
    expect((a.agent as HttpsAgent).options.keepAlive).toBe(true);
    // The TLS options client-node computed are kept.
    expect((a.agent as HttpsAgent).options.rejectUnauthorized).toBe(false);
    expect(a.authorization).toBe('Bearer secret-token');
  });

  it('keeps separate agents for separate KubeConfigs', async () => {
    const a = await agentOf(keepAliveAuthentication(kubeConfig({ server: 'https://a.example:6443' })));
    const b = await agentOf(keepAliveAuthentication(kubeConfig({ server: 'https://b.example:6443' })));
    expect(a.agent).not.toBe(b.agent);
  });

  it('leaves a proxy agent as client-node built it', async () => {
    const kc = kubeConfig({ server: 'https://k8s.example:6443', proxyUrl: 'http://proxy.example:3128' });
    const a = await agentOf(keepAliveAuthentication(kc));
    const b = await agentOf(keepAliveAuthentication(kc));
    expect(a.agent).not.toBe(b.agent);
  });
});
