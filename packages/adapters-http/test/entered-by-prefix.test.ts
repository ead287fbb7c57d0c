import express, { Router, type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { enteredByPrefix } from '../src/routes/entered-by-prefix';

/** Two resource routers mounted in turn, with the requests each router was entered for. */
function api() {
  const clients = Router();
  clients.get('/clients', (_req, res) => void res.json('clients'));
  clients.get('/clients/:id/receivables', (req, res) => void res.json(`receivables of client ${req.params.id}`));
  const receivables = Router();
  receivables.get('/receivables', (_req, res) => void res.json('receivables'));
  receivables.get('/receivables/:id', (req, res) => void res.json(`receivable ${req.params.id}`));
  const entered: string[] = [];
  for (const [name, router] of [
    ['clients', clients],
    ['receivables', receivables],
  ] as const) {
    // Express 5's types leave out the method every router is entered through.
    const entry = router as unknown as { handle: (req: Request, res: Response, next: NextFunction) => void };
    const handle = entry.handle.bind(router);
    entry.handle = (req, res, next) => {
      entered.push(`${name} ${req.path}`);
      return handle(req, res, next);
    };
  }
  const http = express();
  http.use('/v1', enteredByPrefix(clients));
  http.use('/v1', enteredByPrefix(receivables));
  http.use((_req, res) => void res.status(404).json('none'));
  return { http, entered };
}

describe('resource routers entered by their first path segment', () => {
  it('routes each request to its router, whatever router comes first', async () => {
    const { http } = api();
    expect((await request(http).get('/v1/receivables/7')).body).toBe('receivable 7');
    expect((await request(http).get('/v1/clients/3/receivables')).body).toBe('receivables of client 3');
    expect((await request(http).get('/v1/clients')).body).toBe('clients');
  });

  it("enters only the router whose routes start with the request's first segment", async () => {
    const { http, entered } = api();
    await request(http).get('/v1/receivables/7');
    await request(http).get('/v1/clients/3/receivables');
    expect(entered).toEqual(['receivables /receivables/7', 'clients /clients/3/receivables']);
  });

  it('matches as Express does: case-insensitive, with or without a trailing slash', async () => {
    const { http } = api();
    expect((await request(http).get('/v1/Receivables/7')).body).toBe('receivable 7');
    expect((await request(http).get('/v1/receivables/')).body).toBe('receivables');
  });

  it('does not take a longer segment for its prefix, and leaves unknown paths to the handlers after it', async () => {
    const { http } = api();
    expect((await request(http).get('/v1/receivablesX')).status).toBe(404);
    expect((await request(http).get('/v1/clientsreceivables/1')).status).toBe(404);
  });

  it('leaves a router with a middleware of its own, which may match any path, entered for every request', async () => {
    const open = Router();
    let seen = 0;
    open.use((_req, _res, next) => {
      seen++;
      next();
    });
    open.get('/things', (_req, res) => void res.json('things'));
    const http = express();
    http.use(enteredByPrefix(open));
    http.use((_req, res) => void res.status(404).json('none'));
    await request(http).get('/elsewhere');
    expect(seen).toBe(1);
  });
});
