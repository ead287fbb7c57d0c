import { composeCvu } from '@rcs/domain';
import { key } from '../support/fixtures';
import { useTestApi } from '../support/test-api';
import { currentAccountsOf, outgoing, postTransfer, PROVEEDOR } from '../support/transfer-fixtures';

/** A Banco Galicia account with valid check digits. */
const galicia = (n: number) => composeCvu('0070999', BigInt(n));

describe('POST /v1/transfers with contactId', () => {
  const ctx = useTestApi();
  const accounts = {} as Awaited<ReturnType<typeof currentAccountsOf>>;
  beforeAll(async () => {
    Object.assign(accounts, await currentAccountsOf(ctx.api, ctx.token));
  });
  const saveContact = async (body: Record<string, unknown>, token = ctx.token) =>
    (await ctx.api.call('post', '/v1/contacts', { token, body: { name: 'Proveedor SA', taxId: PROVEEDOR.taxId, ...body }, headers: key('contact') })).body as {
      id: number;
      cbuCvu: string;
      alias: string | null;
    };
  const payContact = (contactId: number, overrides: Record<string, unknown> = {}) =>
    postTransfer(ctx.api, ctx.token, { ...outgoing(accounts.main.id, { destination: undefined }), contactId, ...overrides });

  it('copies the recipient’s account and holder into the transfer and answers with both contactId and the destination', async () => {
    const contact = await saveContact({ alias: 'pagos.norte' });
    const res = await payContact(contact.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      contactId: contact.id,
      destination: { cbuCvu: contact.cbuCvu, alias: 'pagos.norte', accountId: null, counterParty: PROVEEDOR },
    });
  });

  it('keeps the destination after the recipient is edited or deleted', async () => {
    const contact = await saveContact({ cbuCvu: galicia(41) });
    const transfer = (await payContact(contact.id)).body;
    await ctx.api.call('put', `/v1/contacts/${contact.id}`, { token: ctx.token, body: { name: 'Otro SRL', taxId: PROVEEDOR.taxId, cbuCvu: galicia(42) } });
    await ctx.api.call('delete', `/v1/contacts/${contact.id}`, { token: ctx.token });
    const read = await ctx.api.call('get', `/v1/transfers/${transfer.id}`, { token: ctx.token });
    expect(read.body).toMatchObject({ contactId: contact.id, destination: { cbuCvu: galicia(41), counterParty: PROVEEDOR } });
  });

  it("refuses another customer's recipient with 403 resource-not-accessible and an unknown one with 404", async () => {
    const theirs = await saveContact({ cbuCvu: galicia(43) }, ctx.otherToken);
    expect((await payContact(theirs.id)).body).toMatchObject({ status: 403, code: 'resource-not-accessible' });
    expect((await payContact(999_999_999)).body).toMatchObject({ status: 404, code: 'resource-not-found' });
  });

  it('refuses contactId with a destination, on an INTERNAL_TRANSFER, and a body with neither, as 400 validation', async () => {
    const contact = await saveContact({ cbuCvu: galicia(44) });
    const both = await payContact(contact.id, { destination: { cbuCvu: galicia(45), counterParty: PROVEEDOR } });
    expect(both.body).toMatchObject({ status: 400, code: 'validation', invalidParams: [expect.objectContaining({ name: 'contactId' })] });
    const internal = await payContact(contact.id, { type: 'INTERNAL_TRANSFER' });
    expect(internal.body).toMatchObject({ status: 400, invalidParams: [expect.objectContaining({ name: 'contactId' })] });
    const neither = await postTransfer(ctx.api, ctx.token, outgoing(accounts.main.id, { destination: undefined }));
    expect(neither.body).toMatchObject({ status: 400, invalidParams: [expect.objectContaining({ name: 'destination' })] });
  });
});
