import type { Clock } from '../../shared/clock';
import { DomainError, NotFoundError } from '../../shared/domain-error';
import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { AssociateQueries } from '../../associates/associate-repository';
import { assertUsableAssociate } from '../../receivable-accounts/use-cases/account-parties';
import type { Receivable } from '../../receivables/receivable';
import type { ReceivableQueries } from '../../receivables/receivable-repository';
import { EMPTY_ROUTE_SUMMARY, type RouteSettlement, type RouteSettlementRecord } from '../route-settlement';
import type { RouteSettlementListFilter, RouteSettlementQueries } from '../route-settlement-repository';

function assertSameRoute(existing: RouteSettlement, date: string, associateId: number): void {
  if (existing.date !== date) {
    throw new DomainError('route-code-already-used', `route code ${existing.routeCode} is already used on ${existing.date}`);
  }
  if (existing.associateId !== associateId) {
    throw new DomainError('route-code-already-used-for-date', `route code ${existing.routeCode} on ${date} belongs to associate ${existing.associateId}`);
  }
}

/**
 * POST /v1/route-settlements, create or update: a new (routeCode, date, associate) is created; the same one again
 * is returned as it is; the code on another date is 422, on the same date with another associate 409. Gives the
 * settlement with its summary, which is what its answer shows: a new one groups nothing yet, so only an existing
 * one's summary is read.
 */
export class RegisterRouteSettlement {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'associates' | 'routeSettlements'>>,
    private readonly queries: RouteSettlementQueries,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    customerId: number;
    routeCode: string;
    date: string;
    associateId: number;
  }): Promise<{ record: RouteSettlementRecord; created: boolean }> {
    const { settlement, created } = await this.uow.run(async (tx) => {
      await assertUsableAssociate(tx, input.customerId, input.associateId);
      const now = this.clock.now();
      const registered = await tx.routeSettlements.insertIfAbsent({ ...input, creationDate: now, modificationDate: now });
      if (!registered.created) assertSameRoute(registered.settlement, input.date, input.associateId);
      return registered;
    });
    // An existing one's summary comes from the read port, once the run that registered or found it is over.
    const summary = created ? EMPTY_ROUTE_SUMMARY : await this.queries.summaryOf(settlement.id);
    return { record: { settlement, summary }, created };
  }
}

export class GetRouteSettlement {
  constructor(private readonly queries: RouteSettlementQueries) {}

  async execute(input: { customerId: number; routeCode: string }): Promise<RouteSettlementRecord> {
    const found = await this.queries.getByCode(input.customerId, input.routeCode);
    if (!found) throw new NotFoundError('route settlement', input.routeCode);
    return found;
  }
}

export class ListRouteSettlements {
  constructor(
    private readonly queries: RouteSettlementQueries,
    private readonly associates: AssociateQueries,
  ) {}

  /** With an associate id (GET /v1/associates/{id}/route-settlements) the associate must be the caller's. */
  async execute(input: { filter: RouteSettlementListFilter; page: PageRequest; ofAssociate?: number }): Promise<Page<RouteSettlementRecord>> {
    if (input.ofAssociate === undefined) return this.queries.list(input.filter, input.page);
    ownedBy(await this.associates.get(input.ofAssociate), input.filter.customerId, 'associate', input.ofAssociate);
    return this.queries.list({ ...input.filter, associateId: input.ofAssociate }, input.page);
  }
}

/** GET /v1/route-settlements/{routeCode}/receivables. */
export class ListRouteSettlementReceivables {
  constructor(
    private readonly settlements: RouteSettlementQueries,
    private readonly receivables: ReceivableQueries,
  ) {}

  async execute(input: { customerId: number; routeCode: string; page: PageRequest }): Promise<Page<Receivable>> {
    const found = await this.settlements.getByCode(input.customerId, input.routeCode);
    if (!found) throw new NotFoundError('route settlement', input.routeCode);
    return this.receivables.list({ customerId: input.customerId, routeSettlementId: found.settlement.id }, input.page);
  }
}
