import { DEFAULT_CUSTOMER_SETTINGS, EMPTY_ROUTE_SUMMARY } from '../src';
import { anAssociateDetails, inMemoryApplication } from '../testing';

describe('registering a route settlement', () => {
  async function world() {
    const w = inMemoryApplication();
    const { customer } = await w.uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'C', creationDate: w.clock.now() }));
    const { associate } = await w.app.associates.register.execute({ customerId: customer.id, details: anAssociateDetails() });
    const input = { customerId: customer.id, routeCode: 'R-1', date: '2026-03-02', associateId: associate.id };
    return { ...w, input };
  }

  it('gives a new settlement with the summary its answer shows, empty, without reading it back', async () => {
    const w = await world();
    const summaryOf = jest.spyOn(w.routeSettlementQueries, 'summaryOf');
    const getByCode = jest.spyOn(w.routeSettlementQueries, 'getByCode');
    const { record, created } = await w.app.routeSettlements.register.execute(w.input);
    expect(created).toBe(true);
    expect(record).toEqual({ settlement: expect.objectContaining({ routeCode: 'R-1', date: '2026-03-02' }), summary: EMPTY_ROUTE_SUMMARY });
    expect(summaryOf).not.toHaveBeenCalled();
    expect(getByCode).not.toHaveBeenCalled();
  });

  it('gives an existing one as it stands, with the summary of what it groups', async () => {
    const w = await world();
    const first = await w.app.routeSettlements.register.execute(w.input);
    const again = await w.app.routeSettlements.register.execute(w.input);
    expect(again).toEqual({ record: first.record, created: false });
    expect(again.record).toEqual(await w.app.routeSettlements.get.execute(w.input));
  });
});
