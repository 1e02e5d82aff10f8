/** Time is a dependency: production reads the system clock, tests move a fake one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fakeClock(
  start: Date | string = '2026-11-21T10:00:00Z',
): Clock & { advance(ms: number): void; set(d: Date | string): void } {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (d) => {
      current = new Date(d).getTime();
    },
  };
}

/** Real time shifted by an adjustable offset, for tests (the product's own movable clock: `bff/stand-ins/agency-clock.ts`, decision 170). */
export function offsetClock(): Clock & { advance(ms: number): void; offset(): number } {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
    offset: () => offset,
  };
}
