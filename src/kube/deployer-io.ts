/**
 * client-node implementations of the deployer's wait, log and apply ports
 * (src/deployer/ports.ts).
 *
 * Each wait is a private list+watch: LIST (with the same selector as the watch), evaluate, then
 * WATCH from the list's resourceVersion and evaluate on every event. A watch that ends or fails
 * is re-established after a short pause (a relist when the resourceVersion expired), and, when
 * `recheckMs` is given, the state is re-LISTed at that period so a silently stalled watch
 * (client-node issues #596/#958) costs at most one interval.
 */
import { PassThrough } from 'node:stream';
import {
  CoreV1Api, Log, PatchStrategy, Watch, setHeaderOptions, type KubeConfig,
  type V1Pod, type V1ReplicationController,
} from '@kubernetes/client-node';
import { ApiError } from '../controller/errors.js';
import type {
  PodLogs, PodWatcher, Predicate, RcApplier, RcWatcher, WaitOptions,
} from '../deployer/ports.js';
import { WaitTimeoutError, WatchedObjectDeletedError } from '../deployer/ports.js';
import { makeApiClient } from './client.js';
import { toApiError, wrapApi } from './errors.js';
import { toPlain } from './plain.js';

interface Named {
  metadata?: { name?: string; resourceVersion?: string };
}

interface ListResult<T> {
  items: T[];
  resourceVersion: string;
}

interface WaitSpec<T extends Named, R> {
  path: string;
  query: Record<string, string>;
  list: () => Promise<ListResult<T>>;
  /** Decides on the current set of objects: a value ends the wait, undefined continues. */
  evaluate: (objects: Map<string, T>) => R | undefined;
  /** Called for a deleted object; a returned error ends the wait. */
  onDelete?: (obj: T) => Error | undefined;
  timeoutMs: number;
  recheckMs?: number;
}

/** Pause before re-opening a watch that ended, so a flapping server is not hammered. */
const rewatchDelayMs = 1000;

/** The part of client-node's Watch used here (injectable for tests). */
export type WatchLike = Pick<Watch, 'watch'>;

function waitWithWatch<T extends Named, R>(watch: WatchLike, spec: WaitSpec<T, R>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const objects = new Map<string, T>();
    let finished = false;
    let resourceVersion = '';
    let controller: AbortController | undefined;
    let recheck: NodeJS.Timeout | undefined;
    let rewatch: NodeJS.Timeout | undefined;
    // Events and relists are applied one at a time, in order.
    let chain: Promise<void> = Promise.resolve();

    const timeout = Number.isFinite(spec.timeoutMs)
      ? setTimeout(() => finish(new WaitTimeoutError()), Math.max(0, spec.timeoutMs))
      : undefined;

    function finish(err: unknown, value?: R): void {
      if (finished) return;
      finished = true;
      if (timeout) clearTimeout(timeout);
      if (recheck) clearInterval(recheck);
      if (rewatch) clearTimeout(rewatch);
      controller?.abort();
      if (err !== undefined) reject(err);
      else resolve(value as R);
    }

    function decide(): void {
      try {
        const result = spec.evaluate(objects);
        if (result !== undefined) finish(undefined, result);
      } catch (err) {
        finish(err);
      }
    }

    const enqueue = (step: () => Promise<void> | void): void => {
      chain = chain.then(async () => {
        if (!finished) await step();
      }).catch((err: unknown) => finish(err));
    };

    async function relist(initial: boolean): Promise<void> {
      const result = await spec.list();
      const seen = new Set<string>();
      for (const item of result.items) {
        const name = item.metadata?.name ?? '';
        seen.add(name);
        objects.set(name, item);
      }
      for (const [name, obj] of objects) {
        if (seen.has(name)) continue;
        objects.delete(name);
        const err = initial ? undefined : spec.onDelete?.(obj);
        if (err) return finish(err);
      }
      resourceVersion = result.resourceVersion;
      decide();
    }

    function startWatch(): void {
      if (finished) return;
      const query = { ...spec.query, resourceVersion, allowWatchBookmarks: 'true' };
      void watch
        .watch(spec.path, query, (type: string, obj: T & { code?: number }) => {
          enqueue(() => {
            if (type === 'BOOKMARK') {
              resourceVersion = obj.metadata?.resourceVersion ?? resourceVersion;
              return;
            }
            if (type === 'ERROR') {
              // Usually 410 Gone: our resourceVersion is too old; start over from a list.
              resourceVersion = '';
              controller?.abort();
              return;
            }
            const plain = toPlain(obj);
            const name = plain.metadata?.name ?? '';
            resourceVersion = plain.metadata?.resourceVersion ?? resourceVersion;
            if (type === 'DELETED') {
              objects.delete(name);
              const err = spec.onDelete?.(plain);
              if (err) return finish(err);
            } else {
              objects.set(name, plain);
            }
            decide();
          });
        }, () => {
          if (finished) return;
          rewatch = setTimeout(() => {
            enqueue(async () => {
              if (resourceVersion === '') await relist(false);
              startWatch();
            });
          }, rewatchDelayMs);
        })
        .then((c) => {
          controller = c;
          if (finished) c.abort();
        }, (err: unknown) => finish(toApiError(err)));
    }

    enqueue(async () => {
      await relist(true);
      if (finished) return;
      startWatch();
      if (spec.recheckMs !== undefined && spec.recheckMs > 0) {
        recheck = setInterval(() => enqueue(() => relist(false)), spec.recheckMs);
      }
    });
  });
}

function notFound(kind: string, namespace: string, name: string): ApiError {
  return new ApiError(`${kind} "${name}" not found in namespace ${namespace}`, 404, 'NotFound');
}

/** Waits on one object: NotFound when absent at the start, deleted → WatchedObjectDeletedError. */
function singleObjectSpec<T extends Named>(
  kind: string,
  namespace: string,
  name: string,
  predicate: Predicate<T>,
): Pick<WaitSpec<T, T>, 'evaluate' | 'onDelete'> & { checkInitial: (r: ListResult<T>) => void } {
  return {
    checkInitial: (r) => {
      if (!r.items.some((i) => i.metadata?.name === name)) throw notFound(kind, namespace, name);
    },
    evaluate: (objects) => {
      const obj = objects.get(name);
      return obj !== undefined && predicate(obj) ? obj : undefined;
    },
    onDelete: (obj) => (obj.metadata?.name === name ? new WatchedObjectDeletedError(`${kind} ${namespace}/${name} was deleted`, obj) : undefined),
  };
}

/** RcWatcher and PodWatcher over client-node's Watch. */
export class KubeDeployerWatchers implements RcWatcher, PodWatcher {
  private readonly watch: WatchLike;
  private readonly core: CoreV1Api;

  constructor(kc: KubeConfig, core?: CoreV1Api, watch?: WatchLike) {
    this.watch = watch ?? new Watch(kc);
    this.core = core ?? makeApiClient(kc, CoreV1Api);
  }

  waitFor(
    namespace: string,
    name: string,
    predicate: Predicate<V1ReplicationController>,
    timeoutMs: number,
    options?: WaitOptions,
  ): Promise<V1ReplicationController> {
    return this.waitForOne('replicationcontrollers', namespace, name, predicate, timeoutMs, options,
      (fieldSelector) => this.core.listNamespacedReplicationController({ namespace, fieldSelector }));
  }

  waitForPod(
    namespace: string,
    name: string,
    predicate: Predicate<V1Pod>,
    timeoutMs: number,
    options?: WaitOptions,
  ): Promise<V1Pod> {
    return this.waitForOne('pods', namespace, name, predicate, timeoutMs, options,
      (fieldSelector) => this.core.listNamespacedPod({ namespace, fieldSelector }));
  }

  /** List+watch one named object of `resource` until `predicate` holds. */
  private waitForOne<T extends V1ReplicationController | V1Pod>(
    resource: 'replicationcontrollers' | 'pods',
    namespace: string,
    name: string,
    predicate: Predicate<T>,
    timeoutMs: number,
    options: WaitOptions | undefined,
    listFn: (fieldSelector: string) => Promise<{ items: T[]; metadata?: { resourceVersion?: string } }>,
  ): Promise<T> {
    const fieldSelector = `metadata.name=${name}`;
    const single = singleObjectSpec(resource, namespace, name, predicate);
    let first = true;
    return waitWithWatch(this.watch, {
      path: `/api/v1/namespaces/${namespace}/${resource}`,
      query: { fieldSelector },
      list: async () => {
        const list = await wrapApi(listFn(fieldSelector));
        const result = { items: list.items.map((i) => toPlain(i)), resourceVersion: list.metadata?.resourceVersion ?? '' };
        if (first) {
          first = false;
          single.checkInitial(result);
        }
        return result;
      },
      evaluate: single.evaluate,
      onDelete: single.onDelete,
      timeoutMs,
      recheckMs: options?.recheckMs,
    });
  }

  waitForPods(
    namespace: string,
    labelSelector: string,
    predicate: Predicate<V1Pod[]>,
    timeoutMs: number,
    options?: WaitOptions,
  ): Promise<V1Pod[]> {
    return waitWithWatch(this.watch, {
      path: `/api/v1/namespaces/${namespace}/pods`,
      query: { labelSelector },
      list: async () => {
        const list = await wrapApi(this.core.listNamespacedPod({ namespace, labelSelector }));
        return { items: list.items.map((i) => toPlain(i)), resourceVersion: list.metadata?.resourceVersion ?? '' };
      },
      evaluate: (objects) => {
        const pods = [...objects.values()];
        return predicate(pods) ? pods : undefined;
      },
      timeoutMs,
      recheckMs: options?.recheckMs,
    });
  }
}

/** PodLogs over client-node's Log (GET pods/log?follow=true). */
export class KubePodLogs implements PodLogs {
  private readonly log: Log;

  constructor(kc: KubeConfig) {
    this.log = new Log(kc);
  }

  async follow(namespace: string, pod: string, container: string, out: NodeJS.WritableStream): Promise<void> {
    // Log pipes the body into the stream and ENDS it when the body ends; never hand it `out`.
    const pipe = new PassThrough();
    pipe.on('data', (chunk: Buffer) => out.write(chunk));
    const ended = new Promise<void>((resolve, reject) => {
      pipe.on('end', resolve);
      pipe.on('error', reject);
    });
    try {
      await this.log.log(namespace, pod, container, pipe, { follow: true, timestamps: false });
    } catch (err) {
      pipe.destroy();
      throw toApiError(err);
    }
    await ended;
  }
}

/** RcApplier using server-side apply (`application/apply-patch+yaml`, not forced). */
export class KubeRcApplier implements RcApplier {
  constructor(private readonly core: CoreV1Api) {}

  async applyAnnotations(
    namespace: string,
    name: string,
    annotations: Record<string, string>,
    fieldManager: string,
  ): Promise<V1ReplicationController> {
    const body = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name, namespace, annotations } };
    const rc = await wrapApi(
      this.core.patchNamespacedReplicationController(
        { namespace, name, body, fieldManager, force: false },
        setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
      ),
    );
    return toPlain(rc);
  }
}
