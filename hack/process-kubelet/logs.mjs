// Pure parts of the process kubelet's log endpoint (TEST INFRASTRUCTURE, see
// docs/process-kubelet.md): the kubelet's /containerLogs query options, line splitting with
// timestamps, and which lines a request gets. Typed by logs.d.mts, unit-tested in
// test/unit/hack/process-kubelet-logs.test.ts.

/** Error a kubelet answers with 400 Bad Request (the API server relays the message). */
export class LogRequestError extends Error {}

const int = (params, name, min) => {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new LogRequestError(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return n;
};
const bool = (params, name) => ['true', '1'].includes(params.get(name) ?? '');

/**
 * The options the API server forwards to a kubelet's `GET /containerLogs/{ns}/{pod}/{container}`
 * (follow, previous, timestamps, tailLines, limitBytes, sinceSeconds, sinceTime).
 */
export function parseLogQuery(params, now) {
  const sinceSeconds = int(params, 'sinceSeconds', 1);
  const rawSinceTime = params.get('sinceTime');
  let sinceMs;
  if (sinceSeconds !== undefined) sinceMs = now.getTime() - sinceSeconds * 1000;
  if (rawSinceTime) {
    const t = Date.parse(rawSinceTime);
    if (Number.isNaN(t)) throw new LogRequestError(`sinceTime must be an RFC 3339 time, got ${JSON.stringify(rawSinceTime)}`);
    sinceMs = t;
  }
  return {
    follow: bool(params, 'follow'),
    previous: bool(params, 'previous'),
    timestamps: bool(params, 'timestamps'),
    tailLines: int(params, 'tailLines', 0),
    limitBytes: int(params, 'limitBytes', 1),
    sinceMs,
  };
}

/** Splits a byte stream into lines, keeping an unterminated tail until more arrives or `end`. */
export class LineSplitter {
  constructor(onLine) {
    this.onLine = onLine;
    this.partial = '';
  }
  push(chunk) {
    const text = this.partial + chunk.toString('utf8');
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.onLine(`${line}\n`);
  }
  end() {
    if (this.partial !== '') this.onLine(this.partial);
    this.partial = '';
  }
}

/** One logged line as served: `<RFC 3339 time> <text>` with timestamps, else the text. */
export const formatEntry = (entry, timestamps) => (timestamps ? `${new Date(entry.time).toISOString()} ${entry.text}` : entry.text);

/** The lines a request gets from what is logged so far: since, then tail, formatted. */
export function initialLines(entries, opts) {
  let selected = opts.sinceMs === undefined ? entries : entries.filter((e) => e.time >= opts.sinceMs);
  if (opts.tailLines !== undefined) selected = opts.tailLines === 0 ? [] : selected.slice(-opts.tailLines);
  return selected.map((e) => formatEntry(e, opts.timestamps));
}

/** Counts bytes against `limitBytes`; `take` returns the part of `text` still allowed. */
export class ByteBudget {
  constructor(limitBytes) {
    this.left = limitBytes ?? Infinity;
  }
  take(text) {
    if (this.left === Infinity) return text;
    const buf = Buffer.from(text, 'utf8');
    const out = buf.subarray(0, Math.max(0, Math.min(buf.length, this.left)));
    this.left -= out.length;
    return out.toString('utf8');
  }
  get exhausted() {
    return this.left <= 0;
  }
}

/** Parses `/containerLogs/{ns}/{pod}/{container}`; undefined for any other path. */
export function parseLogPath(pathname) {
  const m = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(pathname);
  if (!m) return undefined;
  return { namespace: decodeURIComponent(m[1]), pod: decodeURIComponent(m[2]), container: decodeURIComponent(m[3]) };
}
