import type { Application, Clock, UnitOfWork } from '@rcs/domain';

/** What route factories need: the use cases, plus the transaction boundary and clock for idempotency. */
export interface HttpContext {
  readonly app: Application;
  readonly uow: UnitOfWork;
  readonly clock: Clock;
}
