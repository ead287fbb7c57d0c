import { boundary } from '../src/dto/list-query';

const iso = (date: Date) => date.toISOString();

describe('the instants fromDate and toDate bound', () => {
  it('takes a calendar day in Buenos Aires whole', () => {
    expect([iso(boundary('2026-11-29', 'start')), iso(boundary('2026-11-29', 'end'))]).toEqual(['2026-11-29T03:00:00.000Z', '2026-11-30T02:59:59.999Z']);
  });

  it('takes an instant to the millisecond as sent, with its offset', () => {
    expect(iso(boundary('2026-11-29T20:10:00.025Z', 'start'))).toBe('2026-11-29T20:10:00.025Z');
    expect(iso(boundary('2026-11-29T17:10:00.025-03:00', 'end'))).toBe('2026-11-29T20:10:00.025Z');
    expect(iso(boundary('2026-11-29T20:10Z', 'start'))).toBe('2026-11-29T20:10:00.000Z');
  });

  it.each([
    // Rows are stamped to the millisecond: from .025999 starts at .026 (the rows at .025 are before it); to .025999 ends at .025.
    ['2026-11-29T20:10:00.025999Z', '2026-11-29T20:10:00.026Z', '2026-11-29T20:10:00.025Z'],
    ['2026-11-29T20:10:00.025000001Z', '2026-11-29T20:10:00.026Z', '2026-11-29T20:10:00.025Z'],
    ['2026-11-29T20:10:00.0250000Z', '2026-11-29T20:10:00.025Z', '2026-11-29T20:10:00.025Z'],
    ['2026-11-29T20:10:00.9995Z', '2026-11-29T20:10:01.000Z', '2026-11-29T20:10:00.999Z'],
    ['2026-11-29T23:59:59.9999-03:00', '2026-11-30T03:00:00.000Z', '2026-11-30T02:59:59.999Z'],
  ])('bounds %s by the millisecond at or after it from, at or before it to', (value, from, to) => {
    expect([iso(boundary(value, 'start')), iso(boundary(value, 'end'))]).toEqual([from, to]);
  });
});
