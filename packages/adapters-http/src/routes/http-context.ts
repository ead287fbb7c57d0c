import type { Application } from '@rcs/domain';
import type { IdempotencyKeys } from '../middleware/idempotency';

/** What route factories need: the use cases and the idempotency middlewares. */
export interface HttpContext {
  readonly app: Application;
  readonly keys: IdempotencyKeys;
}
