import { describe, expect, it } from 'vitest';
import { MemberChangeFeed } from '#bff/db/change-feed.ts';
import { MemberCache } from '#bff/auth/member-cache.ts';

function counting(values: Record<string, string>) {
  const loads: string[] = [];
  return {
    loads,
    load: (id: string) => async () => {
      loads.push(id);
      return values[id];
    },
  };
}

describe('MemberCache', () => {
  it('caches nothing while the change feed is not live', async () => {
    const feed = new MemberChangeFeed();
    const cache = new MemberCache<string>(feed);
    const source = counting({ a: 'A' });
    expect(await cache.get('a', source.load('a'))).toBe('A');
    expect(await cache.get('a', source.load('a'))).toBe('A');
    expect(source.loads).toEqual(['a', 'a']);
    expect(cache.size).toBe(0);
  });

  it('serves a member from memory until a change to that member is heard', async () => {
    const feed = new MemberChangeFeed();
    feed.setLive(true);
    const cache = new MemberCache<string>(feed);
    const values: Record<string, string> = { a: 'A1', b: 'B1' };
    const source = counting(values);
    await cache.get('a', source.load('a'));
    await cache.get('b', source.load('b'));
    expect(await cache.get('a', source.load('a'))).toBe('A1');
    expect(source.loads).toEqual(['a', 'b']);
    values.a = 'A2';
    feed.announce('a');
    expect(await cache.get('a', source.load('a'))).toBe('A2');
    expect(await cache.get('b', source.load('b'))).toBe('B1');
    expect(source.loads).toEqual(['a', 'b', 'a']);
    expect(cache.hits).toBe(2);
  });

  it("forgets everything on '*' (truncation) and when the feed is lost or restored", async () => {
    const feed = new MemberChangeFeed();
    feed.setLive(true);
    const cache = new MemberCache<string>(feed);
    const source = counting({ a: 'A', b: 'B' });
    await cache.get('a', source.load('a'));
    await cache.get('b', source.load('b'));
    feed.announce('*');
    expect(cache.size).toBe(0);
    await cache.get('a', source.load('a'));
    feed.setLive(false);
    expect(cache.size).toBe(0);
    await cache.get('a', source.load('a'));
    expect(cache.size).toBe(0);
    feed.setLive(true);
    await cache.get('a', source.load('a'));
    expect(cache.size).toBe(1);
    expect(source.loads).toEqual(['a', 'b', 'a', 'a', 'a']);
  });

  it('does not keep a row read while a change was being announced (it may predate the change)', async () => {
    const feed = new MemberChangeFeed();
    feed.setLive(true);
    const cache = new MemberCache<string>(feed);
    let release: (value: string) => void = () => {};
    const slow = cache.get('a', () => new Promise<string>((resolve) => (release = resolve)));
    feed.announce('a'); // committed while the read was in flight
    release('A-old');
    expect(await slow).toBe('A-old');
    expect(cache.size).toBe(0);
    const source = counting({ a: 'A-new' });
    expect(await cache.get('a', source.load('a'))).toBe('A-new');
    expect(source.loads).toEqual(['a']);
  });

  it('bounds its size and the age of its entries', async () => {
    const feed = new MemberChangeFeed();
    feed.setLive(true);
    const small = new MemberCache<string>(feed, { maxEntries: 2 });
    const source = counting({ a: 'A', b: 'B', c: 'C' });
    for (const id of ['a', 'b', 'c']) await small.get(id, source.load(id));
    expect(small.size).toBe(2);
    await small.get('a', source.load('a')); // the oldest went first
    expect(source.loads).toEqual(['a', 'b', 'c', 'a']);

    const shortLived = new MemberCache<string>(feed, { ttlMs: 20 });
    const again = counting({ a: 'A' });
    await shortLived.get('a', again.load('a'));
    await shortLived.get('a', again.load('a'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    await shortLived.get('a', again.load('a'));
    expect(again.loads).toEqual(['a', 'a']);
  });

  it('does not cache a member that does not exist', async () => {
    const feed = new MemberChangeFeed();
    feed.setLive(true);
    const cache = new MemberCache<string>(feed);
    const source = counting({});
    expect(await cache.get('x', source.load('x'))).toBeUndefined();
    expect(await cache.get('x', source.load('x'))).toBeUndefined();
    expect(source.loads).toEqual(['x', 'x']);
  });
});
