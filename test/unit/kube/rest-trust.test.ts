/**
 * trustOnlyServerCa: a deployer process makes its server's CA its default trust store, so Node.js
 * never builds a store of roots the deployer does not use (docs/design.md §6.1). Real TLS with
 * real certificates (openssl): after the call a connection that names no CA trusts the server's
 * CA and nothing else. `npm test` runs this on the machine's Node.js, `npm run test:unit:lts` on
 * the image's; the call exists from Node.js 22.19 and 24.5, and before that it changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { trustOnlyServerCa } from '../../../src/kube/rest.js';

type DefaultCas = { getCACertificates?: (type?: string) => string[]; setDefaultCACertificates?: (certs: string[]) => void };
const tlsDefaults = tls as unknown as DefaultCas;
const supported = typeof tlsDefaults.setDefaultCACertificates === 'function';

const dir = mkdtempSync(path.join(tmpdir(), 'rest-trust-'));
const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
/** A CA `name`, and a server certificate for 127.0.0.1 that it signed. */
function makeCa(name: string): { ca: Buffer; cert: Buffer; key: Buffer } {
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}-ca.key`, '-out', `${name}-ca.crt`, '-days', '1', '-subj', `/CN=${name}-ca`);
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', '/CN=127.0.0.1');
  writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  ssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${name}-ca.crt`, '-CAkey', `${name}-ca.key`, '-CAcreateserial', '-out', `${name}.crt`, '-days', '1', '-extfile', 'san.ext');
  const read = (file: string) => readFileSync(path.join(dir, file));
  return { ca: read(`${name}-ca.crt`), cert: read(`${name}.crt`), key: read(`${name}.key`) };
}

const servers: https.Server[] = [];
async function serve(certs: { cert: Buffer; key: Buffer }): Promise<number> {
  const server = https.createServer({ cert: certs.cert, key: certs.key }, (_req, res) => res.end('ok'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Whether a connection that names no CA of its own accepts the server on `port`. */
function trustedByDefault(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port });
    socket.once('secureConnect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

let cluster: { ca: Buffer; cert: Buffer; key: Buffer };
let clusterPort: number;
let otherPort: number;
let defaultsBefore: string[] | undefined;

beforeAll(async () => {
  cluster = makeCa('cluster');
  clusterPort = await serve(cluster);
  otherPort = await serve(makeCa('other'));
  defaultsBefore = tlsDefaults.getCACertificates?.('default');
});

afterAll(async () => {
  // The test runner's process gets its default trust store back.
  if (supported && defaultsBefore) tlsDefaults.setDefaultCACertificates!(defaultsBefore);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

describe('trustOnlyServerCa (the deployer process\'s default trust store)', () => {
  it('leaves the store alone without a CA, or with one it cannot parse', () => {
    expect(trustOnlyServerCa({ server: 'https://127.0.0.1:1' })).toBe(false);
    expect(trustOnlyServerCa({ server: 'https://127.0.0.1:1', ca: Buffer.from('not a certificate') })).toBe(false);
    expect(tlsDefaults.getCACertificates?.('default')).toEqual(defaultsBefore);
  });

  it('makes the server\'s CA the only one a connection without its own CA trusts', async () => {
    expect(await trustedByDefault(clusterPort)).toBe(false);
    const set = trustOnlyServerCa({ server: `https://127.0.0.1:${clusterPort}`, ca: Buffer.concat([cluster.ca, Buffer.from('\n'), cluster.ca]) });
    expect(set).toBe(supported);
    if (supported) {
      expect(tlsDefaults.getCACertificates!('default').map((pem) => pem.trim())).toEqual([cluster.ca.toString().trim()]);
    }
    // Before Node.js 22.19/24.5 nothing changed: the cluster's CA is still not a default.
    expect(await trustedByDefault(clusterPort)).toBe(supported);
    expect(await trustedByDefault(otherPort)).toBe(false);
  });
});
