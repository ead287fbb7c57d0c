import { receivableAccountView, type ReceivableAccountRecord, type ReceivableAccountWithStats } from '@rcs/domain';

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
  return { ...view, owner };
}

const pick = (party?: { displayName: string; taxId: string }) => (party ? { displayName: party.displayName, taxId: party.taxId } : {});
