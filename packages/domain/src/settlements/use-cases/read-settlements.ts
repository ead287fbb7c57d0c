import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { Settlement } from '../settlement';
import type { SettlementListFilter, SettlementQueries } from '../settlement-repository';

export class GetSettlement {
  constructor(private readonly queries: SettlementQueries) {}

  async execute(input: { customerId: number; settlementId: number }): Promise<Settlement> {
    return ownedBy(await this.queries.get(input.settlementId), input.customerId, 'settlement', input.settlementId);
  }
}

export class ListSettlements {
  constructor(private readonly queries: SettlementQueries) {}

  execute(input: { filter: SettlementListFilter; page: PageRequest }): Promise<Page<Settlement>> {
    return this.queries.list(input.filter, input.page);
  }
}
