/**
 * The table-driven DC scenarios of openshift-controller-manager's deploymentconfig_controller_test.go,
 * run against the in-memory API.
 */
import { describe, expect, it } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import { RetriableError } from '../../../src/controller/errors.js';
import { newFakeCluster } from '../../support/fakes.js';
import { type DcOptions, KEY, makeDc, NS, rcFor, type RcOptions, storedDc, sync, syncCatch } from './fixtures.js';

interface Scenario {
  name: string;
  dc: DcOptions;
  rcs: Array<RcOptions & { version: number }>;
  writes: string[];
  events?: string[];
  replicas?: Record<string, number>;
  latestVersion?: number;
  observedGeneration?: number;
  error?: RegExp;
}

const STATUS = 'update deploymentconfigs/status ns/app';

const scenarios: Scenario[] = [
  { name: 'version zero without triggers: status only', dc: { triggers: [] }, rcs: [], writes: [STATUS], latestVersion: 0 },
  {
    // Nothing to cancel: the RC is created from the bumped DC, and the bump is stored with the
    // RC's own status write (§4.2 step 9; design.md §2.3).
    name: 'version zero with a ConfigChange trigger: first RC created, then the bump stored with its status', dc: {}, rcs: [],
    writes: ['create replicationcontrollers ns/app-1', STATUS], latestVersion: 1,
    events: ['Normal DeploymentCreated: Created new replication controller "app-1" for version 1'],
  },
  {
    name: 'first deployment: RC created', dc: { latestVersion: 1 }, rcs: [],
    writes: ['create replicationcontrollers ns/app-1', STATUS],
    events: ['Normal DeploymentCreated: Created new replication controller "app-1" for version 1'],
  },
  {
    name: 'initial rollout in progress: nothing but status (observedGeneration held)',
    dc: { latestVersion: 1, generation: 2, observedGeneration: 1 }, rcs: [{ version: 1, phase: 'Running' }],
    writes: [STATUS], observedGeneration: 1, replicas: { 'app-1': 0 },
  },
  {
    name: 'new version: RC created next to the complete one', dc: { latestVersion: 2 }, rcs: [{ version: 1, replicas: 1 }],
    writes: ['create replicationcontrollers ns/app-2', STATUS], replicas: { 'app-1': 1, 'app-2': 0 },
  },
  {
    name: 'already in progress: no scaling while the deployer runs', dc: { latestVersion: 2, replicas: 3 },
    rcs: [{ version: 1, replicas: 1 }, { version: 2, phase: 'Pending' }], writes: [STATUS], replicas: { 'app-1': 1, 'app-2': 0 },
  },
  {
    name: 'already deployed: no RC writes', dc: { latestVersion: 2 }, rcs: [{ version: 1, replicas: 0 }, { version: 2, replicas: 1 }],
    writes: [STATUS], replicas: { 'app-1': 0, 'app-2': 1 },
  },
  {
    name: 'awaiting cancellation of an older running deployment', dc: { latestVersion: 3 },
    rcs: [{ version: 1, replicas: 1 }, { version: 2, phase: 'Running' }],
    writes: ['update replicationcontrollers ns/app-2'],
    events: [
      'Normal DeploymentCancelled: Cancelled deployment "app-2" superceded by version 3',
      'Normal DeploymentAwaitingCancellation: Deployment of version 3 awaiting cancellation of older running deployments',
    ],
    error: /^found previous inflight deployment for ns\/app - requeuing$/,
  },
  {
    name: 'awaiting an already-cancelled deployment: no write', dc: { latestVersion: 3 },
    rcs: [{ version: 1, replicas: 1 }, { version: 2, phase: 'Pending', cancelled: true }], writes: [],
    events: ['Normal DeploymentAwaitingCancellation: Deployment of version 3 awaiting cancellation of older running deployments'],
    error: /found previous inflight deployment/,
  },
  {
    name: 'steady state, latest == active: replica corrections', dc: { latestVersion: 2, replicas: 1 },
    rcs: [{ version: 1, replicas: 1 }, { version: 2, replicas: 3 }],
    writes: ['update replicationcontrollers ns/app-1', 'update replicationcontrollers ns/app-2', STATUS],
    replicas: { 'app-1': 0, 'app-2': 1 },
    events: [
      'Normal ReplicationControllerScaled: Scaled replication controller "app-1" from 1 to 0',
      'Normal ReplicationControllerScaled: Scaled replication controller "app-2" from 3 to 1',
    ],
  },
  {
    name: 'steady state, latest != active (latest failed)', dc: { latestVersion: 2, replicas: 2 },
    rcs: [{ version: 1, replicas: 0 }, { version: 2, phase: 'Failed', replicas: 1 }],
    writes: ['update replicationcontrollers ns/app-1', 'update replicationcontrollers ns/app-2', STATUS],
    replicas: { 'app-1': 2, 'app-2': 0 },
  },
  {
    name: 'scale up of the active deployment', dc: { latestVersion: 1, replicas: 5 }, rcs: [{ version: 1, replicas: 1 }],
    writes: ['update replicationcontrollers ns/app-1', STATUS], replicas: { 'app-1': 5 },
  },
  {
    name: 'scale down of the active deployment', dc: { latestVersion: 1, replicas: 1 }, rcs: [{ version: 1, replicas: 5 }],
    writes: ['update replicationcontrollers ns/app-1', STATUS], replicas: { 'app-1': 1 },
  },
  {
    name: 'fallback to the last completed deployment after a partial rollout', dc: { latestVersion: 3, replicas: 3 },
    rcs: [{ version: 1, replicas: 0 }, { version: 2, replicas: 1 }, { version: 3, phase: 'Failed', replicas: 2 }],
    writes: ['update replicationcontrollers ns/app-2', 'update replicationcontrollers ns/app-3', STATUS],
    replicas: { 'app-1': 0, 'app-2': 3, 'app-3': 0 },
  },
  {
    name: 'no deployment ever completed: everything ends at 0', dc: { latestVersion: 2, replicas: 3 },
    rcs: [{ version: 1, phase: 'Failed', replicas: 1 }, { version: 2, phase: 'Failed', replicas: 2 }],
    writes: ['update replicationcontrollers ns/app-1', 'update replicationcontrollers ns/app-2', STATUS],
    replicas: { 'app-1': 0, 'app-2': 0 },
  },
  {
    name: 'test mode: every RC scaled to 0 once terminal', dc: { latestVersion: 1, replicas: 2, test: true },
    rcs: [{ version: 1, replicas: 2 }], writes: ['update replicationcontrollers ns/app-1', STATUS], replicas: { 'app-1': 0 },
  },
  {
    name: 'status calculation advances observedGeneration', dc: { latestVersion: 1, generation: 3, observedGeneration: 1 },
    rcs: [{ version: 1, replicas: 1 }], writes: [STATUS], observedGeneration: 3,
  },
];

describe('syncDeploymentConfig: OpenShift controller scenarios', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    const f = newFakeCluster();
    const dc = makeDc(s.dc);
    f.dcs.put(dc);
    for (const rc of s.rcs) f.rcs.put(rcFor(dc, rc.version, rc));
    const err = await syncCatch(f);
    if (s.error) {
      expect(err).toBeInstanceOf(RetriableError);
      expect((err as Error).message).toMatch(s.error);
    } else {
      expect(err).toBeUndefined();
    }
    expect(f.api.writeSummary()).toEqual(s.writes);
    if (s.events) expect(f.recorder.summary()).toEqual(s.events);
    for (const [name, replicas] of Object.entries(s.replicas ?? {})) {
      expect([name, f.rcs.get(NS, name)?.spec?.replicas]).toEqual([name, replicas]);
    }
    if (s.latestVersion !== undefined) expect(storedDc(f).status?.latestVersion).toBe(s.latestVersion);
    if (s.observedGeneration !== undefined) expect(storedDc(f).status?.observedGeneration).toBe(s.observedGeneration);
  });

  it('marks the superseded RC cancelled with the "newer deployment" reason', async () => {
    const f = newFakeCluster();
    const dc = makeDc({ latestVersion: 2 });
    f.dcs.put(dc);
    f.rcs.put(rcFor(dc, 1, { phase: 'Running' }));
    await syncCatch(f);
    expect(f.rcs.get(NS, 'app-1')?.metadata?.annotations).toMatchObject({
      [Annotations.Cancelled]: 'true',
      [Annotations.StatusReason]: 'newer deployment was found running',
    });
  });

  it('a DC missing from the cache is a no-op', async () => {
    const f = newFakeCluster();
    await sync(f, KEY);
    expect(f.api.actions).toEqual([]);
  });
});
