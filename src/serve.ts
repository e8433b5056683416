/**
 * The controller's HTTP endpoints: /metrics (Prometheus), /healthz and /livez (the process
 * answers), /readyz (caches synced, or standing by for the lease).
 */
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/** `--metrics-bind-address`: `[host]:port`; `0` or empty disables serving. */
export function parseBindAddress(addr: string): { host?: string; port: number } | undefined {
  if (addr === '0' || addr === '') return undefined;
  const idx = addr.lastIndexOf(':');
  const port = Number.parseInt(idx >= 0 ? addr.slice(idx + 1) : addr, 10);
  const host = idx > 0 ? addr.slice(0, idx) : undefined;
  if (!Number.isInteger(port) || port <= 0) throw new Error(`invalid --metrics-bind-address "${addr}"`);
  return host ? { host, port } : { port };
}

/** Starts serving on `bind`; resolves once listening. */
export async function serveProbes(bind: { host?: string; port: number }, registry: Registry, isReady: () => boolean): Promise<Server> {
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/healthz') || url.startsWith('/livez')) { res.writeHead(200).end('ok'); return; }
    if (url.startsWith('/readyz')) {
      const ok = isReady();
      res.writeHead(ok ? 200 : 503).end(ok ? 'ok' : 'caches not synced');
      return;
    }
    if (url.startsWith('/metrics')) {
      registry.metrics().then(
        (body) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(body),
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(bind.port, bind.host, () => resolve());
  });
  return server;
}
