import { Client, DomainError } from '../src';
import { aBranch, aClientDetails, validTaxId } from '../testing';

const NOW = new Date('2026-02-01T00:00:00Z');

describe('client', () => {
  it('canonicalises the taxId on registration', () => {
    const taxId = validTaxId('30', 55555555);
    const draft = Client.register(1, aClientDetails({ taxId: `${taxId.slice(0, 2)}-${taxId.slice(2, 10)}-${taxId[10]}` }), NOW);
    expect(draft.taxId).toBe(taxId);
  });

  it('requires description and address with a branch code, and a branch code with them', () => {
    const incomplete = (details: Parameters<typeof aClientDetails>[0]) => () => Client.register(1, aClientDetails(details), NOW);
    expect(incomplete({ branchExternalCode: 'B1', branchDescription: 'D' })).toThrow(expect.objectContaining({ code: 'incomplete-branch' }));
    expect(incomplete({ branchReferenceAddress: 'Addr' })).toThrow(expect.objectContaining({ code: 'incomplete-branch' }));
    expect(incomplete(aBranch())).not.toThrow();
  });

  it('keeps identity fields immutable and bumps the version on a change', () => {
    const client = Client.rehydrate({ ...Client.register(1, aClientDetails(aBranch('B1')), NOW), id: 3 });
    const renamed = client.replaceDetails(aClientDetails({ ...aBranch('B1'), businessName: 'New' }), NOW);
    expect(renamed.toSnapshot()).toMatchObject({ businessName: 'New', version: 2 });
    expect(() => client.replaceDetails(aClientDetails(aBranch('B2')), NOW)).toThrow(DomainError);
  });
});
