// Types for hack/process-kubelet/logs.mjs (the process kubelet's log endpoint, pure parts).
export declare class LogRequestError extends Error {}
export interface LogQuery {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  limitBytes?: number;
  sinceMs?: number;
}
export interface LogEntry { time: number; text: string }
export declare function parseLogQuery(params: URLSearchParams, now: Date): LogQuery;
export declare class LineSplitter {
  constructor(onLine: (line: string) => void);
  push(chunk: Buffer | string): void;
  end(): void;
}
export declare function formatEntry(entry: LogEntry, timestamps: boolean): string;
export declare function initialLines(entries: readonly LogEntry[], opts: LogQuery): string[];
export declare class ByteBudget {
  constructor(limitBytes?: number);
  take(text: string): string;
  readonly exhausted: boolean;
}
export declare function parseLogPath(pathname: string): { namespace: string; pod: string; container: string } | undefined;
