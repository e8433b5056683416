import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { ImageStream } from '../../../src/apis/imagestream.js';
import {
  imageIdFor, parseImageStreamTagName, resolveTag, tagResolverFor,
} from '../../../src/image/resolve.js';
import { computeImageStreamStatus, MaxTagHistory, streamsReferencedBy, syncedImageStream } from '../../../src/image/status.js';
import { dockerTag, stream } from '../../support/builders.js';

const T0 = new Date('2024-01-01T00:00:00Z');
const T1 = new Date('2024-01-01T01:00:00Z');
const digest = `sha256:${'a'.repeat(64)}`;
const standIn = (ref: string) => `sha256:${createHash('sha256').update(ref).digest('hex')}`;

/** Applies the computed status, as the controller's status write would. */
const settle = (s: ImageStream, now = T0, get?: (ns: string, n: string) => ImageStream | undefined): ImageStream =>
  ({ ...s, status: computeImageStreamStatus(s, now, get) });

describe('image ids and names', () => {
  it('uses the digest of a digest reference, else a stable sha256 of the reference', () => {
    expect(imageIdFor(`quay.io/org/app@${digest}`)).toBe(digest);
    expect(imageIdFor('quay.io/org/app:1')).toBe(standIn('quay.io/org/app:1'));
    expect(imageIdFor(' quay.io/org/app:1 ')).toBe(imageIdFor('quay.io/org/app:1'));
    expect(imageIdFor('quay.io/org/app@notadigest')).toBe(standIn('quay.io/org/app@notadigest'));
  });

  it.each([['web:latest', { stream: 'web', tag: 'latest' }], ['web', undefined], ['web:a:b', undefined], [':x', undefined], ['web:', undefined]])(
    'parses ImageStreamTag name %p', (name, expected) => expect(parseImageStreamTagName(name)).toEqual(expected));
});

describe('computeImageStreamStatus', () => {
  it('records DockerImage spec tags as status history items', () => {
    const s = settle(stream('web', [dockerTag('1.0', 'registry.local/web:1'), dockerTag('digest', `registry.local/web@${digest}`)]));
    expect(s.status).toEqual({
      tags: [
        { tag: '1.0', items: [{ created: '2024-01-01T00:00:00Z', dockerImageReference: 'registry.local/web:1', image: standIn('registry.local/web:1'), generation: 1 }] },
        { tag: 'digest', items: [{ created: '2024-01-01T00:00:00Z', dockerImageReference: `registry.local/web@${digest}`, image: digest, generation: 1 }] },
      ],
    });
    expect(syncedImageStream(s, T1)).toBeUndefined();
  });

  it('pushes a new item when the tag moves, and only raises the generation when the same image is tagged again', () => {
    let s = settle(stream('web', [dockerTag('latest', 'r/web:1')]));
    s = { ...s, metadata: { ...s.metadata, generation: 2 }, spec: { tags: [dockerTag('latest', 'r/web:2', { generation: 2 })] } };
    s = settle(s, T1);
    expect(s.status?.tags?.[0]?.items?.map((i) => [i.dockerImageReference, i.generation, i.created])).toEqual([
      ['r/web:2', 2, '2024-01-01T01:00:00Z'], ['r/web:1', 1, '2024-01-01T00:00:00Z'],
    ]);
    s = { ...s, metadata: { ...s.metadata, generation: 3 }, spec: { tags: [dockerTag('latest', 'r/web:2', { generation: 3 })] } };
    s = settle(s, new Date('2024-01-02T00:00:00Z'));
    expect(s.status?.tags?.[0]?.items?.map((i) => [i.dockerImageReference, i.generation, i.created])).toEqual([
      ['r/web:2', 3, '2024-01-01T01:00:00Z'], ['r/web:1', 1, '2024-01-01T00:00:00Z'],
    ]);
  });

  it(`keeps at most ${MaxTagHistory} history items`, () => {
    let s = stream('web', []);
    for (let i = 0; i < MaxTagHistory + 3; i++) s = settle({ ...s, spec: { tags: [dockerTag('latest', `r/web:${i}`)] } });
    const items = s.status?.tags?.[0]?.items ?? [];
    expect(items).toHaveLength(MaxTagHistory);
    expect(items[0]?.dockerImageReference).toBe(`r/web:${MaxTagHistory + 2}`);
  });

  it('resolves tag aliases in the same stream in any order, and reports cycles', () => {
    const s = settle(stream('web', [
      { name: 'prod', from: { kind: 'ImageStreamTag', name: 'web:latest' } },
      { name: 'stable', from: { kind: 'ImageStreamTag', name: 'prod' } },
      dockerTag('latest', 'r/web:7'),
      { name: 'a', from: { kind: 'ImageStreamTag', name: 'b' } },
      { name: 'b', from: { kind: 'ImageStreamTag', name: 'a' } },
    ]));
    const byTag = Object.fromEntries((s.status?.tags ?? []).map((t) => [t.tag, t]));
    expect(byTag['prod']?.items?.[0]?.dockerImageReference).toBe('r/web:7');
    expect(byTag['stable']?.items?.[0]?.dockerImageReference).toBe('r/web:7');
    expect(byTag['a']?.items).toEqual([]);
    expect(byTag['a']?.conditions?.[0]).toMatchObject({ type: 'ImportSuccess', status: 'False' });
    expect(byTag['b']?.conditions?.[0]?.status).toBe('False');
  });

  it('resolves ImageStreamTag and ImageStreamImage references into other streams', () => {
    const base = settle(stream('base', [dockerTag('1', `r/base@${digest}`)], 'shared'));
    const get = (ns: string, n: string) => (ns === 'shared' && n === 'base' ? base : undefined);
    const s = settle(stream('web', [
      { name: 'base', from: { kind: 'ImageStreamTag', name: 'base:1', namespace: 'shared' } },
      { name: 'pinned', from: { kind: 'ImageStreamImage', name: `base@${digest}`, namespace: 'shared' } },
      { name: 'missing', from: { kind: 'ImageStreamTag', name: 'nope:1' } },
    ]), T0, get);
    const refs = (s.status?.tags ?? []).map((t) => [t.tag, t.items?.[0]?.dockerImageReference, t.conditions?.[0]?.reason]);
    expect(refs).toEqual([['base', `r/base@${digest}`, undefined], ['pinned', `r/base@${digest}`, undefined], ['missing', undefined, 'NotFound']]);
    expect(streamsReferencedBy(s).sort()).toEqual(['ns/nope', 'shared/base']);
  });

  it('keeps the history of a tag that stops resolving, and drops status tags whose spec tag is gone', () => {
    let s = settle(stream('web', [dockerTag('latest', 'r/web:1'), dockerTag('old', 'r/web:0')]));
    s = settle({ ...s, spec: { tags: [{ name: 'latest', from: { kind: 'ImageStreamTag', name: 'gone' } }] } }, T1);
    expect(s.status?.tags).toEqual([{
      tag: 'latest',
      items: [expect.objectContaining({ dockerImageReference: 'r/web:1' })],
      conditions: [{ type: 'ImportSuccess', status: 'False', reason: 'NotFound', message: 'imagestreamtag "ns/web:gone" has no image', generation: 1, lastTransitionTime: '2024-01-01T01:00:00Z' }],
    }]);
  });
});

describe('resolveTag', () => {
  it('resolves the newest item, honouring referencePolicy Local when the stream has a repository', () => {
    const s = settle({
      ...stream('web', [dockerTag('src', `r/web@${digest}`), dockerTag('local', `r/web@${digest}`, { referencePolicy: { type: 'Local' } })]),
    });
    expect(resolveTag(s, 'src')).toBe(`r/web@${digest}`);
    expect(resolveTag(s, 'local')).toBe(`r/web@${digest}`);
    const withRepo = settle({ ...s, spec: { ...s.spec, dockerImageRepository: 'registry.internal:5000/ns/web:ignored' } });
    expect(resolveTag(withRepo, 'local')).toBe(`registry.internal:5000/ns/web@${digest}`);
    expect(resolveTag(withRepo, 'src')).toBe(`r/web@${digest}`);
    expect(resolveTag(s, 'nope')).toBeUndefined();
    const resolve = tagResolverFor((ns, n) => (ns === 'ns' && n === 'web' ? s : undefined));
    expect([resolve('ns', 'web:src'), resolve('other', 'web:src'), resolve('ns', 'web')]).toEqual([`r/web@${digest}`, undefined, undefined]);
  });
});
