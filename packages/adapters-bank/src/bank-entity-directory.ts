import type { EntityDirectory } from '@rcs/domain';
import { BANKS, PAYMENT_SERVICE_PROVIDERS } from './entities/argentine-entities';

/**
 * The EntityDirectory over the data table of Argentine banks and PSPs. A CVU is told from a CBU by its leading 000
 * (no bank has code 000); a code missing from the table gets a name that says which code it was, the same every
 * time, so a caller can still tell two unknown entities apart.
 */
export class ArgentineEntityDirectory implements EntityDirectory {
  entityOf(cbuCvu: string): string {
    if (cbuCvu.startsWith('000')) {
      const psp = cbuCvu.slice(3, 7);
      return PAYMENT_SERVICE_PROVIDERS[psp] ?? `Unknown entity (PSP code ${psp})`;
    }
    const bank = cbuCvu.slice(0, 3);
    return BANKS[bank] ?? `Unknown entity (code ${bank})`;
  }
}
