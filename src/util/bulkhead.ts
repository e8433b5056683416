/**
 * A bulkhead: at most `inFlight` calls of `fn` at once, `queued` more waiting in order, and any
 * beyond refused at once with the error `busy()` makes. For endpoints that answer whoever reaches
 * them and make an API request per call (the admission webhook's dry runs, the metrics endpoint's
 * TokenReviews): a flood of callers must not become a flood of requests at the controller's API
 * priority (deploy/base/flowcontrol.yaml) that starves the controllers.
 */
export interface Bounds {
  readonly inFlight: number;
  readonly queued: number;
}

export function bulkhead<A extends unknown[], R>(fn: (...args: A) => Promise<R>, bounds: Bounds, busy: () => Error): (...args: A) => Promise<R> {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return async (...args) => {
    if (running >= bounds.inFlight) {
      if (waiting.length >= bounds.queued) throw busy();
      // The slot is handed over by release(), so `running` stays counted.
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running++;
    }
    try {
      return await fn(...args);
    } finally {
      release();
    }
  };
}
