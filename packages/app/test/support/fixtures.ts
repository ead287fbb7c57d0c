import { validTaxId } from '@rcs/domain/testing';
import type { TestApi } from './test-api';

let serial = 0;
let keys = 0;

/** The id of a current account of the customer a credential (client id) belongs to. */
export async function currentAccountIdOf(api: TestApi, credential: string): Promise<number> {
  const row = await api.db
    .knex('current_accounts')
    .join('credentials', 'credentials.customer_id', 'current_accounts.customer_id')
    .where('credentials.client_id', credential)
    .first<{ id: string }>('current_accounts.id');
  return Number(row.id);
}

/** A unique Idempotency-Key header. */
export const key = (prefix = 'k') => ({ 'Idempotency-Key': `${prefix}-${process.pid}-${++keys}` });

/** A body for POST or PUT /v1/associates, its tax id and document number not used before in this test file. */
export function anAssociateBody(overrides: Record<string, unknown> = {}) {
  serial += 1;
  return {
    type: 'DRIVER',
    name: 'Rosa',
    lastName: `Díaz${serial}`,
    taxId: validTaxId('27', 40000000 + serial * 10),
    documentNumber: String(40000000 + serial * 10),
    email: 'r@d.example',
    phone: '+5491100000000',
    ...overrides,
  };
}

/** A client and an associate of the caller's customer, made through the API. */
export async function parties(api: TestApi, token: string, holder = 'Kiosco') {
  serial += 1;
  const client = await api.call('post', '/v1/clients', {
    token,
    body: {
      businessName: `${holder} ${serial} SA`,
      taxId: validTaxId('30', 40000000 + serial * 10),
      documentType: 'CUIT',
      branchExternalCode: `B${serial}`,
      branchDescription: 'Centro',
      branchReferenceAddress: 'Calle 1',
    },
  });
  const associate = await api.call('post', '/v1/associates', { token, body: anAssociateBody() });
  return { client: client.body, associate: associate.body };
}

/** A client with an ACTIVE receivable account of its own. */
export async function activeAccount(api: TestApi, token: string) {
  const { client, associate } = await parties(api, token);
  const account = await api.call('post', '/v1/receivable-accounts', { token, body: { clientId: client.id }, headers: key('acct') });
  await api.provisionAll();
  return { client, associate, account: account.body as { id: number } };
}
