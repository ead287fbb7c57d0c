import { ValidateBy } from 'class-validator';

/** Years 0001 to 9999: PostgreSQL has no year 0000 (it would fail the statement, a 500, instead of a 400 here). */
const DAY = /^(?!0000)\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A YYYY-MM-DD date that exists (not 2026-02-30, not in year 0000). */
export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !DAY.test(value)) return false;
  return new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}

export function CalendarDate(): PropertyDecorator {
  return ValidateBy({
    name: 'calendarDate',
    validator: { validate: isCalendarDate, defaultMessage: (args) => `${args?.property} must be a date as YYYY-MM-DD, years 0001 to 9999` },
  });
}
