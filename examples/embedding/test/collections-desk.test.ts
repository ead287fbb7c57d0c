import { aClientDetails, inMemoryPorts } from '@rcs/domain/testing';
import { collectionsDesk } from '../src';

/** The desk on the domain's in-memory adapters: the whole money path in-process, no database, no bank. */
function deskOnFakes() {
  return collectionsDesk(inMemoryPorts());
}

describe('a collections desk embedding the domain', () => {
  it('issues a receivable that waits for payment', async () => {
    const desk = deskOnFakes();
    const { customerId, receivableAccountId } = await desk.openMerchant('Kiosco El Sol', aClientDetails());

    const receivable = await desk.issue(customerId, receivableAccountId, '1500.50');

    expect((await desk.receivable(customerId, receivable.id)).status).toBe('PENDING');
  });

  it('keeps the MAIN current account at zero until the settlement runs', async () => {
    const desk = deskOnFakes();
    const { customerId, receivableAccountId } = await desk.openMerchant('Kiosco El Sol', aClientDetails());
    const receivable = await desk.issue(customerId, receivableAccountId, '1500.50');

    await desk.pay(customerId, receivableAccountId, receivable.id, '1500.50');

    expect((await desk.mainBalance(customerId)).cvuMinor).toBe(0n);
  });

  it('settles a paid receivable and credits its exact amount to the MAIN current account', async () => {
    const desk = deskOnFakes();
    const { customerId, receivableAccountId } = await desk.openMerchant('Kiosco El Sol', aClientDetails());
    const receivable = await desk.issue(customerId, receivableAccountId, '1500.50');
    await desk.pay(customerId, receivableAccountId, receivable.id, '1500.50');

    const run = await desk.settle(customerId);

    expect(run).toEqual({ settlements: 1, settledReceivables: 1, settledAmountMinor: 150050n });
    expect((await desk.receivable(customerId, receivable.id)).status).toBe('SETTLED');
    expect((await desk.mainBalance(customerId)).cvuMinor).toBe(150050n);
  });
});
