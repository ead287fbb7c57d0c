import type { DeliveryStatus, EventType, WebhookDelivery } from '@rcs/domain';

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  customer_id: string;
  event_id: string;
  event_type: EventType;
  attempt: number;
  status: DeliveryStatus;
  response_code: number | null;
  duration_ms: number | null;
  failure_reason: string | null;
  created_at: Date;
  attempted_at: Date | null;
  next_attempt_at: Date | null;
}

/** The history's columns: never the payload, which only the sender reads. */
export const HISTORY_COLUMNS = [
  'id',
  'webhook_id',
  'customer_id',
  'event_id',
  'event_type',
  'attempt',
  'status',
  'response_code',
  'duration_ms',
  'failure_reason',
  'created_at',
  'attempted_at',
  'next_attempt_at',
] as const;

/** Which attempt of which event at which webhook a row is. */
export const attemptOf = (row: Pick<DeliveryRow, 'id' | 'webhook_id' | 'customer_id' | 'event_id' | 'event_type' | 'attempt' | 'created_at'>) => ({
  id: Number(row.id),
  webhookId: Number(row.webhook_id),
  customerId: Number(row.customer_id),
  eventId: row.event_id,
  eventType: row.event_type,
  attempt: row.attempt,
  createdAt: row.created_at,
});

export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  ...attemptOf(row),
  status: row.status,
  responseCode: row.response_code,
  durationMs: row.duration_ms,
  failureReason: row.failure_reason,
  attemptedAt: row.attempted_at,
  nextAttemptAt: row.next_attempt_at,
});

/** Migration 041's encoding of an attempt's schedule step: 0 outside the schedule, NULL written before the column. */
export const storedStep = (step: number | null): number => step ?? 0;
export const scheduleStepOf = (row: Pick<DeliveryRow, 'attempt'> & { schedule_step: number | null }): number | null =>
  row.schedule_step === null ? row.attempt : row.schedule_step === 0 ? null : row.schedule_step;
