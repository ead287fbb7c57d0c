import { randomUUID } from 'node:crypto';
import { httpLoad } from './load';
import { receivableBody } from './payload';
import type { ServiceProcess } from './service-process';
import type { Measurement } from './stats';

export interface ScenarioRun {
  readonly connections: number;
  readonly seconds: number;
  readonly token: string;
  /** Seeded ACTIVE accounts: ids firstAccount .. firstAccount + accounts - 1. */
  readonly firstAccount: number;
  readonly accounts: number;
}

const pick = (run: ScenarioRun) => run.firstAccount + Math.floor(Math.random() * run.accounts);

/** One creation's own parts: a fresh Idempotency-Key and the body, on one of the seeded accounts. */
export const newCreation = (run: ScenarioRun) => ({ headers: { 'idempotency-key': randomUUID() }, body: receivableBody(pick(run)) });

export function createReceivables(service: Pick<ServiceProcess, 'url'>, run: ScenarioRun): Promise<Measurement> {
  return httpLoad({
    url: `${service.url}/v1/receivables`,
    method: 'POST',
    headers: { authorization: `Bearer ${run.token}` },
    perRequest: () => newCreation(run),
    connections: run.connections,
    seconds: run.seconds,
    expectStatus: 201,
  });
}

export async function replayReceivable(service: ServiceProcess, run: ScenarioRun): Promise<Measurement> {
  const key = `bench-replay-${randomUUID()}`;
  const body = receivableBody(run.firstAccount);
  const first = await service.call('POST', '/v1/receivables', run.token, JSON.parse(body), { 'idempotency-key': key });
  if (first.status !== 201) throw new Error(`could not create the receivable to replay: ${first.status} ${JSON.stringify(first.body)}`);
  return httpLoad({
    url: `${service.url}/v1/receivables`,
    method: 'POST',
    headers: { authorization: `Bearer ${run.token}`, 'idempotency-key': key },
    body,
    connections: run.connections,
    seconds: run.seconds,
    expectStatus: 201,
  });
}

export function listReceivables(service: Pick<ServiceProcess, 'url'>, run: ScenarioRun): Promise<Measurement> {
  return httpLoad({
    url: `${service.url}/v1/receivables`,
    headers: { authorization: `Bearer ${run.token}` },
    perRequest: () => ({ path: `/v1/receivables?receivableAccountId=${pick(run)}&status=PENDING&count=20` }),
    connections: run.connections,
    seconds: run.seconds,
    expectStatus: 200,
  });
}

export function login(service: ServiceProcess, run: ScenarioRun): Promise<Measurement> {
  return httpLoad({
    url: `${service.url}/v1/auth/login`,
    method: 'POST',
    body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
    connections: run.connections,
    seconds: run.seconds,
    expectStatus: 200,
  });
}
