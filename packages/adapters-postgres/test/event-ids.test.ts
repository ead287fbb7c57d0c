import { newEventIds } from '../src/repositories/knex-outbox';

describe('event ids', () => {
  it('are evt_ and 24 base62 characters, distinct, and sort by the millisecond they were made in', () => {
    const earlier = newEventIds(1_000, Date.UTC(2026, 4, 1, 12, 0, 0, 0));
    const later = newEventIds(1_000, Date.UTC(2026, 4, 1, 12, 0, 0, 1));
    for (const id of [...earlier, ...later]) expect(id).toMatch(/^evt_[0-9A-Za-z]{24}$/);
    expect(new Set([...earlier, ...later]).size).toBe(2_000);
    const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    expect([...later, ...earlier].sort(byteOrder).slice(1_000)).toEqual([...later].sort(byteOrder));
  });

  it('drawn one at a time from the shared random pool, stay distinct across its refills', () => {
    const ids = Array.from({ length: 2_000 }, () => newEventIds(1, Date.UTC(2026, 4, 1, 12, 0, 0, 0))[0]);
    for (const id of ids) expect(id).toMatch(/^evt_[0-9A-Za-z]{24}$/);
    expect(new Set(ids).size).toBe(2_000);
  });
});
