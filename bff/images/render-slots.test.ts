import { describe, expect, it } from 'vitest';
import { RenderSlots } from '#bff/images/render-slots.ts';

/** A render held open until the test lets it finish. */
function heldRender() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let started = false;
  return {
    render: () => {
      started = true;
      return done;
    },
    finish: () => finish(),
    started: () => started,
  };
}

describe('RenderSlots (decision 182)', () => {
  it('lets one client hold at most `perClient` renders at once; the next is refused until one ends', async () => {
    const slots = new RenderSlots({ total: 4, perClient: 2, queue: 8 });
    const [a, b, c] = [heldRender(), heldRender(), heldRender()];
    const first = slots.tryRun('203.0.113.20', a.render);
    const second = slots.tryRun('203.0.113.20', b.render);
    expect(slots.tryRun('203.0.113.20', c.render)).toBe('client');
    expect(c.started()).toBe(false);
    // Another client is not held back by the first one's renders.
    const other = heldRender();
    const elsewhere = slots.tryRun('198.51.100.7', other.render);
    expect(elsewhere).toBeInstanceOf(Promise);
    a.finish();
    await first;
    const third = slots.tryRun('203.0.113.20', c.render);
    expect(third).toBeInstanceOf(Promise);
    for (const held of [b, c, other]) held.finish();
    await Promise.all([second, third, elsewhere]);
  });

  it('runs at most `total` renders for everyone, queues `queue` more in order, and refuses the rest as busy', async () => {
    const slots = new RenderSlots({ total: 2, perClient: 2, queue: 1 });
    const renders = Array.from({ length: 4 }, () => heldRender());
    const runs = renders.map((held, i) => slots.tryRun(`198.51.100.${i + 1}`, held.render));
    expect(runs.slice(0, 3).every((run) => run instanceof Promise)).toBe(true);
    expect(runs[3]).toBe('busy');
    await Promise.resolve();
    expect(renders.map((held) => held.started())).toEqual([true, true, false, false]);
    renders[0]?.finish();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    // The queued render takes the slot that was freed; never three at once.
    expect(renders.map((held) => held.started())).toEqual([true, true, true, false]);
    renders[1]?.finish();
    renders[2]?.finish();
    await Promise.all(runs.slice(1, 3));
  });
});
