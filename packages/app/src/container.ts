import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Container } from 'inversify';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createApplication, type Application, type Clock, type UnitOfWork } from '@rcs/domain';
import { ensureSetting, KnexAssociateQueries, KnexClientQueries, KnexUnitOfWork } from '@rcs/adapters-postgres';
import { JwtTokenService, RandomSecretGenerator, ScryptSecretHasher } from '@rcs/adapters-http';
import type { Config } from './config';

/** Service identifiers; only this package knows Inversify. */
export const TYPES = {
  Config: Symbol('Config'),
  Logger: Symbol('Logger'),
  Knex: Symbol('Knex'),
  Clock: Symbol('Clock'),
  UnitOfWork: Symbol('UnitOfWork'),
  Tokens: Symbol('Tokens'),
  Application: Symbol('Application'),
} as const;

export const systemClock: Clock = { now: () => new Date() };

/** Sandbox without JWT_SECRET: one random secret, stored in the database so all instances agree. */
export async function resolveJwtSecret(config: Config, knex: Knex): Promise<string> {
  return config.jwtSecret ?? ensureSetting(knex, 'jwt-secret', randomBytes(48).toString('base64url'));
}

/** Binds the adapters this configuration selects and builds the application once. */
export function buildContainer(config: Config, logger: Logger, knex: Knex, jwtSecret: string): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(TYPES.Config).toConstantValue(config);
  container.bind(TYPES.Logger).toConstantValue(logger);
  container.bind(TYPES.Knex).toConstantValue(knex);
  container.bind<Clock>(TYPES.Clock).toConstantValue(systemClock);
  container.bind<UnitOfWork>(TYPES.UnitOfWork).toResolvedValue((db: Knex) => new KnexUnitOfWork(db), [TYPES.Knex]);
  container.bind<JwtTokenService>(TYPES.Tokens).toConstantValue(new JwtTokenService(jwtSecret));
  container.bind<Application>(TYPES.Application).toResolvedValue(
    (uow: UnitOfWork, clock: Clock, tokens: JwtTokenService, db: Knex) =>
      createApplication({
        uow,
        clock,
        tokens,
        hasher: new ScryptSecretHasher(),
        secrets: new RandomSecretGenerator(),
        clientQueries: new KnexClientQueries(db),
        associateQueries: new KnexAssociateQueries(db),
      }),
    [TYPES.UnitOfWork, TYPES.Clock, TYPES.Tokens, TYPES.Knex],
  );
  return container;
}
