import { Client, DEFAULT_CUSTOMER_SETTINGS, Money } from '../../src';
import { aClientDetails, inMemoryApplication } from '../../testing';

/** An ACTIVE account holding a PENDING invoice of 150.00 and a credit note of 10.00 under it: 140.00 pending. */
export async function activeAccountWithReceivables() {
  const w = inMemoryApplication();
  const { customer } = await w.uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'Acme', creationDate: w.clock.now() }));
  const { client } = await w.uow.run((tx) => tx.clients.insertIfAbsent(Client.register(customer.id, aClientDetails(), w.clock.now())));
  const account = await w.app.receivableAccounts.open.execute({ customerId: customer.id, clientId: client.id });
  await w.app.receivableAccounts.provision.execute({ limit: 10 });
  const issue = (amount: string, receivableType: 'INVOICE' | 'CREDIT_NOTE', parentReceivableId?: number) =>
    w.app.receivables.issue.execute({
      customerId: customer.id,
      receivableAccountId: account.id,
      amount: Money.parse(amount),
      currencyCode: 'ARS',
      receivableType,
      parentReceivableId,
    });
  const invoice = await issue('150.00', 'INVOICE');
  await issue('10.00', 'CREDIT_NOTE', invoice.id);
  return { ...w, target: { customerId: customer.id, accountId: account.id } };
}

export type AccountWorld = Awaited<ReturnType<typeof activeAccountWithReceivables>>;
