/** Waiting helpers for tests that run on real timers (the kube adapters, the worker runner) and the e2e tests. */
import { pino, type Logger } from 'pino';

export { sleep } from '../../src/util/sleep.js';

/** Polls `cond` every `stepMs` until it holds; fails after `timeoutMs`. */
export async function until(cond: () => boolean, timeoutMs = 3000, stepMs = 2): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** A debug logger whose lines are kept as objects, for assertions on what was logged. */
export function memoryLog(): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  return { log, lines };
}

/** A small seeded PRNG (mulberry32), so a failing random sequence can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
