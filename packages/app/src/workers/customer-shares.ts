/** Adds `added` to a customer's count, leaving out a customer whose count falls to 0. */
function add(counts: Map<number, number>, customerId: number, added: number): void {
  const now = (counts.get(customerId) ?? 0) + added;
  if (now === 0) counts.delete(customerId);
  else counts.set(customerId, now);
}

/**
 * What each customer's webhooks hold of a delivery worker: attempts being sent and attempts leased and waiting for a
 * slot, those of customers with none left out. A customer holds `perCustomer` slots at most, and claims lease it no
 * more than `rounds` rounds of them, so one with many webhooks holds no more of the worker's room than one with few.
 */
export class CustomerShares {
  private readonly sendingOf = new Map<number, number>();
  private readonly waitingOf = new Map<number, number>();

  constructor(
    private readonly perCustomer: number,
    private readonly rounds: number,
  ) {}

  /** Every slot of the customer's share is taken. */
  full(customerId: number): boolean {
    return (this.sendingOf.get(customerId) ?? 0) >= this.perCustomer;
  }

  /**
   * The customer holds its share of slots, or its attempts out and waiting fill `rounds` rounds of it: claims lease
   * it no more. Counted on what it holds, not on its free slots: near its share those allowed a few attempts per
   * claim, and each claim gave back most of what it took.
   */
  served(customerId: number): boolean {
    const sending = this.sendingOf.get(customerId) ?? 0;
    return this.full(customerId) || sending + (this.waitingOf.get(customerId) ?? 0) >= this.perCustomer * this.rounds;
  }

  /** One more attempt of the customer's is being sent (1), or one was answered (-1). */
  countSending(customerId: number, added: 1 | -1): void {
    add(this.sendingOf, customerId, added);
  }

  countWaiting(customerId: number, added: number): void {
    add(this.waitingOf, customerId, added);
  }
}
