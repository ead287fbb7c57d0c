import { Router, type Request, type RequestHandler } from 'express';
import type { ContactDestination } from '@rcs/domain';
import { requireScope, authOf } from '../auth/authenticate';
import { ContactBody, ContactListQuery } from '../dto/contact-dto';
import { pageOf } from '../dto/list-query';
import { parseId, parseInput } from '../dto/parse-input';
import { contactResponse } from '../mappers/contact-response';
import type { HttpContext } from './http-context';
import { created, noContent, ok } from './answer';
import { keyedBody, sendPage, validBody } from './respond';
import { ProviderLookups } from './provider-lookups';

export function contactRoutes({ app, keys }: HttpContext): Router {
  const router = Router();
  const read = requireScope('contacts:read');
  const write = requireScope('contacts:write');
  const target = (req: Request) => ({ customerId: authOf(req).customerId, contactId: parseId(req.params.id) });

  // Resolved before the Idempotency-Key's transaction opens: an alias is asked of the provider, and no transaction
  // waits on it (ProviderLookups says how each answer is kept).
  const destinations = new ProviderLookups<ContactDestination>();
  const resolveDestination: RequestHandler = async (req, _res, next) => {
    const { cbuCvu, alias } = req.body as ContactBody;
    await destinations.look(req, () => app.contacts.resolveDestination.execute({ cbuCvu: cbuCvu ?? undefined, alias: alias ?? undefined }));
    next();
  };
  const input = (req: Request) => {
    const { name, taxId } = req.body as ContactBody;
    return { customerId: authOf(req).customerId, details: { name, taxId }, destination: destinations.of(req)! };
  };

  router.get('/contacts', read, async (req, res) => {
    const query = parseInput(ContactListQuery, req.query, 'query');
    const filter = { customerId: authOf(req).customerId, taxId: query.taxId, alias: query.alias };
    sendPage(res, await app.contacts.list.execute({ filter, page: pageOf(query) }), contactResponse);
  });

  router.post(
    '/contacts',
    write,
    ...keyedBody(
      keys,
      'optional',
      validBody(ContactBody),
      async (req, app) => {
        const contact = await app.contacts.create.execute(input(req));
        return created(contactResponse(contact), `/v1/contacts/${contact.id}`);
      },
      resolveDestination,
    ),
  );

  router.get('/contacts/:id', read, async (req, res) => {
    res.json(contactResponse(await app.contacts.get.execute(target(req))));
  });

  router.put(
    '/contacts/:id',
    write,
    ...keyedBody(
      keys,
      'optional',
      validBody(ContactBody),
      async (req, app) => ok(contactResponse(await app.contacts.replace.execute({ ...input(req), ...target(req) }))),
      resolveDestination,
    ),
  );

  router.delete(
    '/contacts/:id',
    write,
    keys.optional(async (req, app) => {
      await app.contacts.delete.execute(target(req));
      return noContent();
    }),
  );

  return router;
}
