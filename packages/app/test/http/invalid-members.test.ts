import { validTaxId } from '@rcs/domain/testing';
import { useTestApi, type CallOptions } from '../support/test-api';
import { activeAccount, anAssociateBody, key } from '../support/fixtures';

/** What a 400 validation's invalidParams say of a member that is missing, of the wrong type, or a body that is not an object. */
describe('invalid members', () => {
  const ctx = useTestApi();
  const call = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, options: CallOptions = {}) =>
    ctx.api.call(method, url, { token: ctx.token, ...options });

  it('reports a missing required member as required, and nothing about its length', async () => {
    const res = await call('post', '/v1/associates', {
      body: { type: 'DRIVER', name: 'Rosa', lastName: 'Díaz', taxId: validTaxId('27', 40000010), documentNumber: '40000010', phone: '+5491100000000' },
    });
    expect(res.status).toBe(400);
    expect(res.body.invalidParams).toEqual([{ name: 'email', reason: 'is required' }]);
  });

  describe('a member of the wrong type', () => {
    let receivable: number;
    let account: number;
    beforeAll(async () => {
      account = (await activeAccount(ctx.api, ctx.token)).account.id;
      receivable = (
        await call('post', '/v1/receivables', {
          headers: key('invalid'),
          body: { receivableAccountId: account, amount: 100, currencyCode: 'ARS', receivableType: 'INVOICE' },
        })
      ).body.id;
    });

    it('is reported for its type alone, not for the length it cannot have', async () => {
      const res = await call('post', '/v1/auth/login', { token: undefined, body: { clientId: 1, clientSecret: 2 } });
      expect(res.body.invalidParams).toEqual([
        { name: 'clientId', reason: 'clientId must be a string' },
        { name: 'clientSecret', reason: 'clientSecret must be a string' },
      ]);
      const client = await call('post', '/v1/clients', { body: { businessName: 'ACME', taxId: '30-71234567-1', documentType: 'CUIT', email: 5 } });
      expect(client.body.invalidParams).toEqual([{ name: 'email', reason: 'email must be a string' }]);
    });

    it('takes as attachmentUri any absolute http(s) URL, an intranet host too, and names it when refused', async () => {
      for (const uri of ['https://fileserver/v.pdf', 'https://localhost:8080/v.pdf', 'https://my_host.example.com/v.pdf', 'http://10.1.2.3/v.pdf']) {
        const res = await call('put', `/v1/receivables/${receivable}`, { body: { attachmentUri: uri } });
        expect([uri, res.status, res.body.attachmentUri]).toEqual([uri, 200, uri]);
      }
      for (const uri of ['s3://bucket/key.pdf', 'fileserver/v.pdf', 'https://', 'javascript:alert(1)']) {
        const res = await call('put', `/v1/receivables/${receivable}`, { body: { attachmentUri: uri } });
        expect([uri, res.status, res.body.invalidParams]).toEqual([
          uri,
          400,
          [{ name: 'attachmentUri', reason: 'attachmentUri must be an absolute http(s) URL' }],
        ]);
      }
    });

    it('is reported as not a list of accounts when a batch holds an object, not for the sizes it cannot have', async () => {
      const res = await call('post', '/v1/receivable-accounts/batches', { headers: key('err-batch'), body: { items: {} } });
      expect(res.status).toBe(400);
      expect(res.body.invalidParams).toEqual([{ name: 'items', reason: 'items must be an array of 1 to 1000 accounts' }]);
    });

    it('is reported as not an object when it is an array where an object belongs, not item by item', async () => {
      const res = await call('put', `/v1/receivables/${receivable}`, { body: { invoiceData: [1, 2] } });
      expect(res.status).toBe(400);
      expect(res.body.invalidParams).toEqual([{ name: 'invoiceData', reason: 'invoiceData must be an object' }]);
      const collection = await call('post', '/v1/sandbox/collections', { body: { receivableAccountId: account, amount: 10, counterParty: ['ACME SA'] } });
      expect(collection.body.invalidParams).toEqual([{ name: 'counterParty', reason: 'counterParty must be an object' }]);
    });
  });

  describe('a name', () => {
    const client = (businessName: string, n: number) => ({ businessName, taxId: validTaxId('30', 41000000 + n * 10), documentType: 'CUIT' });

    it('of spaces alone is refused, naming the member, and nothing is stored', async () => {
      const blankClient = await call('post', '/v1/clients', { body: client(' \t ', 1) });
      expect(blankClient.status).toBe(400);
      expect(blankClient.body.invalidParams).toEqual([{ name: 'businessName', reason: 'must not be blank' }]);
      const blankAssociate = await call('post', '/v1/associates', { body: anAssociateBody({ lastName: '   ' }) });
      expect(blankAssociate.status).toBe(400);
      expect(blankAssociate.body.invalidParams).toEqual([{ name: 'lastName', reason: 'must not be blank' }]);
      const blankContact = await call('post', '/v1/contacts', { body: { name: ' ', taxId: validTaxId('30', 41000030), alias: 'blank.name' } });
      expect(blankContact.body.invalidParams).toEqual([{ name: 'name', reason: 'must not be blank' }]);
      const listed = await call('get', `/v1/clients?taxId=${validTaxId('30', 41000010)}`);
      expect(listed.body).toEqual([]);
    });

    it.each(['\u200b', '\u200b\u200c\u200d', '\u2066\u202e', '\u3164', ' \ufeff\u00ad ', '\u0007', '\u2800'])(
      'of characters that show nothing (%j) is refused as blank',
      async (invisible) => {
        const invisibleClient = await call('post', '/v1/clients', { body: client(invisible, 5) });
        expect([invisibleClient.status, invisibleClient.body.invalidParams]).toEqual([400, [{ name: 'businessName', reason: 'must not be blank' }]]);
        const invisibleAssociate = await call('post', '/v1/associates', { body: anAssociateBody({ type: invisible }) });
        expect(invisibleAssociate.body.invalidParams).toEqual([{ name: 'type', reason: 'must not be blank' }]);
      },
    );

    it('keeps a name that shows something beside invisible characters as given', async () => {
      const created = await call('post', '/v1/clients', { body: client('Kiosco\u200bNorte', 6) });
      expect([created.status, created.body.businessName]).toEqual([201, 'Kiosco\u200bNorte']);
    });

    it('is stored without the spaces around it, on creation and on replacement', async () => {
      const created = await call('post', '/v1/clients', { body: client('  Kiosco Sur SA ', 4) });
      expect(created.body.businessName).toBe('Kiosco Sur SA');
      const body = anAssociateBody({ type: ' DRIVER', name: 'Rosa ' });
      const registered = await call('post', '/v1/associates', { body });
      expect(registered.body).toMatchObject({ type: 'DRIVER', name: 'Rosa' });
      const replaced = await call('put', `/v1/associates/${registered.body.id}`, { body: { ...body, name: '  ' } });
      expect(replaced.body.invalidParams).toEqual([{ name: 'name', reason: 'must not be blank' }]);
      expect((await call('get', `/v1/associates/${registered.body.id}`)).body.name).toBe('Rosa');
    });
  });

  it('reports a JSON null body as not a JSON object rather than as invalid JSON', async () => {
    const res = await ctx.api.call('post', '/v1/clients', { token: ctx.token, headers: { 'Content-Type': 'application/json' }, body: 'null' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('body: must be a JSON object (Content-Type: application/json)');
  });
});
