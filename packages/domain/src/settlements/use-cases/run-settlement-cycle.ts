import type { Clock } from '../../shared/clock';
import type { DomainEvent } from '../../shared/events';
import type { UnitOfWork } from '../../shared/unit-of-work';
import { receivableView } from '../../receivables/receivable';
import { settlementView } from '../settlement';

export interface SettlementRunResult {
  readonly settlements: number;
  readonly settledReceivables: number;
  readonly settledAmountMinor: bigint;
}

/**
 * The settlement cycle: chunk after chunk, each in one transaction with its events (receivable.settled per
 * receivable, settlement.completed per settlement). Two runs at once share the accounts (each chunk skips rows
 * another holds); a run that dies loses only its open chunk, which the next run does again. Accounts holding no
 * unsettled money are not settled: their PAID receivables wait for the money.
 */
export class RunSettlementCycle {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: { chunkSize: number } = { chunkSize: 500 }): Promise<SettlementRunResult> {
    const total = { settlements: 0, settledReceivables: 0, settledAmountMinor: 0n };
    for (;;) {
      const chunk = await this.uow.run(async (tx) => {
        const now = this.clock.now();
        const settled = await tx.settlements.settleDue(now, input.chunkSize);
        const events: DomainEvent[] = [
          ...settled.settledReceivables.map((r): DomainEvent => ({ customerId: r.customerId, type: 'receivable.settled', occurredAt: now, data: { receivable: receivableView(r) } })),
          ...settled.settlements.map((s): DomainEvent => ({ customerId: s.customerId, type: 'settlement.completed', occurredAt: now, data: { settlement: settlementView(s) } })),
        ];
        await tx.outbox.record(events);
        return settled;
      });
      total.settlements += chunk.settlements.length;
      total.settledReceivables += chunk.settledReceivables.length;
      total.settledAmountMinor += chunk.settlements.reduce((sum, s) => sum + s.amountMinor, 0n);
      if (chunk.settlements.length < input.chunkSize) return total;
    }
  }
}
