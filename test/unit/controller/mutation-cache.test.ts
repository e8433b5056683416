import { describe, expect, it } from '@jest/globals';
import { MutationCache, isNewer } from '../../../src/controller/mutation-cache.js';
import type { Lister } from '../../../src/controller/ports.js';
import { FakeClock } from '../../support/clock.js';

interface Obj { metadata: { namespace: string; name: string; resourceVersion: string }; value?: string }
const obj = (name: string, rv: string, value?: string): Obj => ({ metadata: { namespace: 'ns', name, resourceVersion: rv }, value });

/** An informer stand-in whose content the test sets. */
class Backing implements Lister<Obj> {
  items = new Map<string, Obj>();
  set(o: Obj): void { this.items.set(o.metadata.name, o); }
  get(_ns: string, name: string): Obj | undefined { return this.items.get(name); }
  list(): Obj[] { return [...this.items.values()]; }
}

function setup(ttlMs = 10_000) {
  const backing = new Backing();
  const clock = new FakeClock();
  const cache = new MutationCache<Obj>(backing, clock, ttlMs);
  return { backing, cache, clock, advance: (ms: number) => clock.advance(ms) };
}

describe('MutationCache', () => {
  it('serves our write until the informer has the same or a newer version', () => {
    const { backing, cache } = setup();
    backing.set(obj('a', '5', 'old'));
    cache.mutated(obj('a', '7', 'ours'));
    expect(cache.get('ns', 'a')?.value).toBe('ours');
    expect(cache.list('ns').map((o) => o.value)).toEqual(['ours']);
    backing.set(obj('a', '7', 'ours'));
    expect(cache.get('ns', 'a')?.value).toBe('ours');
    expect(cache.size()).toBe(0);
    backing.set(obj('a', '9', 'theirs'));
    expect(cache.get('ns', 'a')?.value).toBe('theirs');
  });

  it('compares resourceVersions as integers, not strings', () => {
    expect(isNewer(obj('a', '10'), obj('a', '9'))).toBe(true);
    expect(isNewer(obj('a', '9'), obj('a', '10'))).toBe(false);
    expect(isNewer(obj('a', 'x1'), obj('a', '1'))).toBe(false);
    const { backing, cache } = setup();
    backing.set(obj('a', '10', 'informer'));
    cache.mutated(obj('a', '9', 'older write'));
    expect(cache.get('ns', 'a')?.value).toBe('informer');
  });

  it('keeps the newer of two writes that answered out of order', () => {
    const { backing, cache } = setup();
    backing.set(obj('a', '1'));
    cache.mutated(obj('a', '4', 'second'));
    cache.mutated(obj('a', '3', 'first'));
    expect(cache.get('ns', 'a')?.value).toBe('second');
  });

  it('forgets a write after the TTL, so a lost watch event cannot pin it', () => {
    const { backing, cache, advance } = setup(1000);
    backing.set(obj('a', '1', 'informer'));
    cache.mutated(obj('a', '2', 'ours'));
    advance(1001);
    expect(cache.get('ns', 'a')?.value).toBe('informer');
  });

  it('holds no write longer than the TTL, even of an object deleted and never read again', () => {
    // A DC deleted within the TTL of our last status write: its sync finds it gone, and its
    // entry was only dropped by a read after the TTL, which never came: one object per deletion.
    const { backing, cache, advance } = setup();
    for (let i = 0; i < 1000; i++) {
      backing.set(obj(`dc-${i}`, '5'));
      cache.mutated(obj(`dc-${i}`, '6'));
      backing.items.delete(`dc-${i}`);
      expect(cache.get('ns', `dc-${i}`)).toBeUndefined();
    }
    advance(10_001);
    cache.mutated(obj('other', '9'));
    expect(cache.size()).toBe(1);
  });

  it('shows objects we created before the informer sees them, but never resurrects updated ones it lost', () => {
    const { backing, cache } = setup();
    cache.mutated(obj('new', '3', 'created'), true);
    expect(cache.get('ns', 'new')?.value).toBe('created');
    expect(cache.list('ns').map((o) => o.metadata.name)).toEqual(['new']);
    expect(cache.list('other')).toEqual([]);
    cache.mutated(obj('gone', '4', 'updated'));
    expect(cache.get('ns', 'gone')).toBeUndefined();
    expect(cache.list('ns').map((o) => o.metadata.name)).toEqual(['new']);
  });

  it('announces our creates to onCreated handlers at once, and nothing else', () => {
    const { backing, cache } = setup();
    const announced: string[] = [];
    cache.onCreated((o) => announced.push(`${o.metadata.name}@${o.metadata.resourceVersion}`));
    cache.mutated(obj('a', '3'), true);
    backing.set(obj('b', '4'));
    cache.mutated(obj('b', '5'));
    expect(announced).toEqual(['a@3']);
  });

  it('holds a write for its TTL of elapsed time, whatever the wall clock does', () => {
    // The wall clock steps (NTP, a resumed VM). One hour back must not keep an RC we created,
    // and someone deleted before our informer saw it, listed for an hour; one hour forward must
    // not drop our write at once, so that the next sync decides on the state before it.
    const { backing, cache, clock } = setup(1000);
    cache.mutated(obj('created', '3'), true);
    clock.stepWallClock(-3600_000);
    clock.advance(1001);
    expect(cache.get('ns', 'created')).toBeUndefined();
    expect(cache.list('ns')).toEqual([]);

    backing.set(obj('a', '1', 'informer'));
    cache.mutated(obj('a', '2', 'ours'));
    clock.stepWallClock(3600_000);
    expect(cache.get('ns', 'a')?.value).toBe('ours');
  });
});
