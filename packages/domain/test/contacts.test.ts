import { composeCvu, Contact, ValidationError } from '../src';
import { inMemoryApplication, validTaxId } from '../testing';

const TAX_ID = validTaxId('30', 71234567);
const galicia = (n: number) => composeCvu('0070999', BigInt(n));
const details = { name: '  Proveedor Norte SA ', taxId: `${TAX_ID.slice(0, 2)}-${TAX_ID.slice(2, 10)}-${TAX_ID[10]}` };

describe('contact', () => {
  const NOW = new Date('2026-02-01T00:00:00Z');

  it('canonicalises the taxId and trims the name', () => {
    const draft = Contact.create(1, details, { cbuCvu: galicia(1), alias: null, entity: 'Galicia' }, NOW);
    expect(draft).toMatchObject({ name: 'Proveedor Norte SA', taxId: TAX_ID, version: 1 });
  });

  it('refuses a blank name and a CBU with a wrong check digit', () => {
    const destination = { cbuCvu: galicia(1), alias: null, entity: 'Galicia' };
    expect(() => Contact.create(1, { ...details, name: '  ' }, destination, NOW)).toThrow(ValidationError);
    expect(() => Contact.create(1, details, { ...destination, cbuCvu: galicia(1).replace(/.$/, (d) => String((Number(d) + 1) % 10)) }, NOW)).toThrow(
      ValidationError,
    );
  });

  it('replaces every field and bumps the version, keeping id and creation date', () => {
    const contact = Contact.rehydrate({ ...Contact.create(1, details, { cbuCvu: galicia(1), alias: 'viejo.alias', entity: 'Galicia' }, NOW), id: 5 });
    const later = new Date('2026-02-02T00:00:00Z');
    const replaced = contact.replace({ name: 'Nuevo', taxId: TAX_ID }, { cbuCvu: galicia(2), alias: null, entity: 'Galicia' }, later);
    expect(replaced.toSnapshot()).toMatchObject({
      id: 5,
      name: 'Nuevo',
      cbuCvu: galicia(2),
      alias: null,
      creationDate: NOW,
      modificationDate: later,
      version: 2,
    });
  });
});

describe('resolving a recipient destination', () => {
  const setup = () => {
    const world = inMemoryApplication();
    world.bank.scriptAlias('norte.pagos', {
      alias: 'norte.pagos',
      cbuCvu: galicia(9),
      holderName: 'Norte SA',
      holderTaxId: TAX_ID,
      entity: 'Banco de Galicia',
    });
    world.bank.scriptAlias('norte.caido', 'down');
    return world;
  };

  it('takes the entity of a CBU from the directory without asking the provider', async () => {
    const { app } = setup();
    expect(await app.contacts.resolveDestination.execute({ cbuCvu: galicia(3) })).toEqual({ cbuCvu: galicia(3), alias: null, entity: 'Entity 0070999' });
  });

  it('asks the provider for an alias, in the case the caller wrote it, and keeps that case', async () => {
    const { app } = setup();
    expect(await app.contacts.resolveDestination.execute({ alias: 'Norte.Pagos' })).toEqual({
      cbuCvu: galicia(9),
      alias: 'Norte.Pagos',
      entity: 'Banco de Galicia',
    });
  });

  it('refuses an alias that names another account than the cbuCvu sent with it', async () => {
    const { app } = setup();
    await expect(app.contacts.resolveDestination.execute({ alias: 'norte.pagos', cbuCvu: galicia(3) })).rejects.toMatchObject({
      code: 'validation',
      invalidParams: [{ name: 'alias', reason: expect.any(String) }],
    });
    await expect(app.contacts.resolveDestination.execute({ alias: 'norte.pagos', cbuCvu: galicia(9) })).resolves.toMatchObject({ cbuCvu: galicia(9) });
  });

  it('answers an unknown alias as resource-not-found and a provider that is down as 502', async () => {
    const { app } = setup();
    await expect(app.contacts.resolveDestination.execute({ alias: 'nadie.sabe' })).rejects.toMatchObject({ code: 'resource-not-found' });
    await expect(app.contacts.resolveDestination.execute({ alias: 'norte.caido' })).rejects.toMatchObject({ code: 'external-provider-unavailable' });
  });

  it('saves what it resolved, and refuses a second recipient with the same alias in another case', async () => {
    const { app } = setup();
    const destination = await app.contacts.resolveDestination.execute({ alias: 'norte.pagos' });
    const contact = await app.contacts.create.execute({ customerId: 1, details, destination });
    expect((await app.contacts.get.execute({ customerId: 1, contactId: contact.id })).toSnapshot()).toMatchObject({ alias: 'norte.pagos', cbuCvu: galicia(9) });
    const again = { ...destination, alias: 'NORTE.PAGOS', cbuCvu: galicia(10) };
    await expect(app.contacts.create.execute({ customerId: 1, details, destination: again })).rejects.toMatchObject({ code: 'duplicated-contact' });
  });
});
