/** Argentina has had no daylight saving since 2009: Buenos Aires is always UTC-03:00. */
const BUENOS_AIRES_OFFSET_MS = -3 * 60 * 60 * 1000;

/** The calendar day (YYYY-MM-DD) an instant falls on in Buenos Aires, where the service's dates live. */
export function calendarDay(instant: Date): string {
  return new Date(instant.getTime() + BUENOS_AIRES_OFFSET_MS).toISOString().slice(0, 10);
}
