import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#bff/db/database.ts';
import { readPayInFull, watchPayInFull, writePayInFull } from '#bff/onboarding/plan-settings.ts';
import type { PayInFullSetting } from '#machines/onboarding/plans.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

/** The public pages' view of the staff's pay-in-full setting (decision 106). */
function pages() {
  const shown: PayInFullSetting[] = [];
  return {
    shown,
    payInFull: 'cash' as PayInFullSetting,
    setPayInFull(setting: PayInFullSetting) {
      this.payInFull = setting;
      shown.push(setting);
    },
  };
}

describe('watchPayInFull', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('follows the stored setting, and never undoes a change made on this instance', async () => {
    expect(await readPayInFull(database.db)).toBe('cash');
    const target = pages();
    const watch = watchPayInFull(database.db, target, 60_000);
    try {
      await watch.read();
      expect(target.shown).toEqual([]);
      await writePayInFull(database.db, 'cashback', new Date());
      await watch.read();
      expect(target.payInFull).toBe('cashback');

      // Later reads follow the database (another instance's change).
      await writePayInFull(database.db, 'cash', new Date());
      await watch.read();
      expect(target.payInFull).toBe('cash');
      expect(target.shown).toEqual(['cashback', 'cash']);
    } finally {
      watch.stop();
    }
  });

  it('never lets a read begun before a change made here undo it', async () => {
    // A database whose answer arrives when the test says: the read is under way as staff change.
    let answer: (rows: { key: string; value: string }[]) => void = () => undefined;
    const pending = new Promise<{ key: string; value: string }[]>((resolve) => {
      answer = resolve;
    });
    const slowDb = { select: () => ({ from: () => ({ where: () => ({ limit: () => pending }) }) }) } as unknown as Database['db'];
    const target = pages();
    const watch = watchPayInFull(slowDb, target, 60_000);
    try {
      const late = watch.read();
      watch.set('cashback');
      answer([{ key: 'plans.pay_in_full', value: 'cash' }]);
      await late;
      expect(target.payInFull).toBe('cashback');
      expect(target.shown).toEqual(['cashback']);
    } finally {
      watch.stop();
    }
  });
});
