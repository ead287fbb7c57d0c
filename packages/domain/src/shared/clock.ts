/** The only source of "now" in the domain: passed in, never read from the system inside an entity. */
export interface Clock {
  now(): Date;
}
