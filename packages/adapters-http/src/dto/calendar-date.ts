import { ValidateBy } from 'class-validator';

/** Years 0001 to 9999: PostgreSQL has no year 0000 (it would fail the statement, a 500, instead of a 400 here). */
const DAY = /^(?!0000)\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A time of day after a date, with its UTC offset: without one, the instant would be the server's local time. */
const TIME = /^T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** A YYYY-MM-DD date that exists (not 2026-02-30, not in year 0000). */
export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !DAY.test(value)) return false;
  const [year, month, day] = [Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10))];
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]);
}

/** A calendar date as isCalendarDate says, alone or followed by a time: YYYY-MM-DD[Thh:mm[:ss[.fff]](Z|±hh:mm)]. */
export function isDateOrTimestamp(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const [day, time] = [value.slice(0, 10), value.slice(10)];
  return isCalendarDate(day) && (time === '' || TIME.test(time));
}

export function CalendarDate(): PropertyDecorator {
  return ValidateBy({
    name: 'calendarDate',
    validator: { validate: isCalendarDate, defaultMessage: (args) => `${args?.property} must be a date as YYYY-MM-DD, years 0001 to 9999` },
  });
}

/** A creation-date filter: a calendar day (in Buenos Aires) or an instant. */
export function DateOrTimestamp(): PropertyDecorator {
  return ValidateBy({
    name: 'dateOrTimestamp',
    validator: {
      validate: isDateOrTimestamp,
      defaultMessage: (args) => `${args?.property} must be a date as YYYY-MM-DD or a timestamp as YYYY-MM-DDThh:mm:ss with Z or an offset, years 0001 to 9999`,
    },
  });
}
