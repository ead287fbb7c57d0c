import { isCalendarDate } from '../src/dto/calendar-date';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The calendar as the JavaScript engine keeps it, for years 0001 to 9999 (ISO text, so years below 100 stay so). */
const exists = (text: string) => new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;

describe('a calendar date', () => {
  it.each([1, 4, 99, 100, 400, 1582, 1900, 2000, 2024, 2025, 2026, 2100, 2400, 9999])('in year %i exists as the calendar says, day by day', (year) => {
    for (let month = 0; month <= 13; month += 1) {
      for (let day = 0; day <= 32; day += 1) {
        const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
        const valid = month >= 1 && month <= 12 && day >= 1 && day <= 31 && exists(text);
        expect([text, isCalendarDate(text)]).toEqual([text, valid]);
      }
    }
  });

  it.each(['0000-01-01', '2026-2-03', '2026-02-3', '20260203', '2026-02-03T00:00:00Z', ' 2026-02-03', '2026-02-03\n', '２０２６-02-03', 20260203, null])(
    'is not %p',
    (value) => {
      expect(isCalendarDate(value)).toBe(false);
    },
  );
});
