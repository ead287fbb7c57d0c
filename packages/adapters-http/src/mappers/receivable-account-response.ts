import { receivableAccountView, type ReceivableAccountRecord, type ReceivableAccountWithStats } from '@rcs/domain';
import { jsonAmount } from './json-amount';

/**
 * The wire shape of a receivable account. Without expand, owner carries type and id(s); with expand=owner it
 * adds displayName and taxId (or, for CLIENT_AND_ASSOCIATE, nested client and associate).
 */
export function receivableAccountResponse(record: ReceivableAccountWithStats | ReceivableAccountRecord, expandOwner = false) {
  const view = receivableAccountView(record.account.toSnapshot(), record.pendingAmountMinor);
  const { client, associate } = 'owners' in record ? record.owners : {};
  const owner = !expandOwner
    ? view.owner
    : view.owner.type === 'CLIENT_AND_ASSOCIATE'
      ? { ...view.owner, client, associate }
      : { ...view.owner, ...(view.owner.type === 'CLIENT' ? pick(client) : pick(associate)) };
  // The view's amount is a JSON number; past a double's exact digits the wire writes the bigint's own.
  return { ...view, owner, stats: { pendingAmount: jsonAmount(record.pendingAmountMinor) } };
}

const pick = (party?: { displayName: string; taxId: string }) => (party ? { displayName: party.displayName, taxId: party.taxId } : {});
