/**
 * A CA of its own and a serving certificate it signed for 127.0.0.1 (openssl), for the tests of a
 * TLS endpoint the process under test serves locally: `<dir>/<ca>.crt|key` and `<dir>/<leaf>.crt|key`.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export function localServingCert(dir: string, names: { ca: string; leaf: string }): void {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const { ca, leaf } = names;
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${ca}.key`, '-out', `${ca}.crt`, '-days', '2', '-subj', `/CN=${ca}`);
  writeFileSync(path.join(dir, `${leaf}.ext`), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${leaf}.key`, '-out', `${leaf}.csr`, '-subj', '/CN=127.0.0.1');
  ssl('x509', '-req', '-in', `${leaf}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${leaf}.crt`, '-days', '2', '-extfile', `${leaf}.ext`);
}
