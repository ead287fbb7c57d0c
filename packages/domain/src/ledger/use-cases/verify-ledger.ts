import type { LedgerMismatch, LedgerQueries } from '../ledger-repository';

/** `npm run admin -- ledger verify`: every account's balance must equal the sum of its movements. */
export class VerifyLedger {
  constructor(private readonly ledger: LedgerQueries) {}

  execute(): Promise<LedgerMismatch[]> {
    return this.ledger.mismatches();
  }
}
