import { createApplication, Money, type ApplicationPorts, type ClientDetails } from '@rcs/domain';

/**
 * An embedding team's own service: one merchant's collections desk, calling the domain's use cases in-process
 * instead of over HTTP. Its storage and bank are whatever ports it is given.
 */
export function collectionsDesk(ports: ApplicationPorts) {
  const app = createApplication(ports);
  return {
    async openMerchant(name: string, client: ClientDetails) {
      const { customer } = await app.customers.create.execute({ name });
      const registered = await app.clients.register.execute({ customerId: customer.id, details: client });
      const account = await app.receivableAccounts.open.execute({ customerId: customer.id, clientId: registered.client.id });
      // The bank assigns the CVU the money will arrive on; the service's worker does this on its schedule.
      await app.receivableAccounts.provision.execute({ limit: 10 });
      return { customerId: customer.id, receivableAccountId: account.id };
    },

    issue(customerId: number, receivableAccountId: number, amount: string) {
      return app.receivables.issue.execute({ customerId, receivableAccountId, amount: Money.parse(amount), currencyCode: 'ARS', receivableType: 'INVOICE' });
    },

    /** The payer's transfer arrived on the account's CVU, and the merchant marks the receivable it pays. */
    async pay(customerId: number, receivableAccountId: number, receivableId: number, amount: string) {
      await app.collections.record.execute({
        customerId,
        receivableAccountId,
        amount: Money.parse(amount),
        counterParty: { name: 'Payer', taxId: '20123456786' },
      });
      return app.receivables.changeStatus.execute({ customerId, receivableId, status: 'PAID' });
    },

    settle(customerId: number) {
      return app.settlements.run.execute({ customerId });
    },

    async mainBalance(customerId: number) {
      const { items } = await app.currentAccounts.list.execute({ filter: { customerId, accountType: 'MAIN' }, page: { page: 1, count: 1 } });
      return app.currentAccounts.balances.execute({ customerId, accountId: items[0].account.id });
    },

    receivable(customerId: number, receivableId: number) {
      return app.receivables.get.execute({ customerId, receivableId });
    },
  };
}
