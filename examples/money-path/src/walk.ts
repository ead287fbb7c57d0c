import { setTimeout as sleep } from 'node:timers/promises';

/** Called once per step with what the service answered. */
export type Report = (step: string, answer: unknown) => void;

/** The Idempotency-Key of one write of this run, as the typed client takes it. */
export type Keyed = (write: string) => { header: { 'Idempotency-Key': string } };

const POLL_MS = 500;

/** The wait between two reads of something the service finishes in the background. */
export const pause = () => sleep(POLL_MS);
