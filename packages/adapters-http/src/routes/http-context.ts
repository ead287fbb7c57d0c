import type { Application } from '@rcs/domain';
import type { IdempotencyKeys } from '../middleware/idempotency';

/** What route factories need: the use cases and the Idempotency-Key handlers. */
export interface HttpContext {
  readonly app: Application;
  readonly keys: IdempotencyKeys;
}
