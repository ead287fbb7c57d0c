import type { Knex } from 'knex';
import { ensureSetting } from './settings';

const KEY = 'events_feed_server';

/** This server's system identifier: whose transaction ids the events feed's positions are (migration 048). */
export const FEED_SERVER_SQL = 'SELECT system_identifier::text AS server FROM pg_control_system()';

/**
 * The events feed orders by transaction ids (migration 048), which belong to the server that gave them. The server
 * the outbox's ids came from is kept in settings. Started on another (a dump restored, a move by logical
 * replication: its system identifier differs), the ids held are set to 0, so those events come first in the feed,
 * in the order they were recorded, and the new server is kept. Feed cursors name their server too, and one given by
 * the old server is refused rather than followed past new events.
 */
export async function adoptFeedServer(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: Array<{ server: string }> }>(FEED_SERVER_SQL);
  const [{ server }] = rows;
  if ((await ensureSetting(knex, KEY, server)) === server) return;
  await knex.transaction(async (trx) => {
    await trx.raw(`UPDATE outbox_events SET txid = '0' WHERE txid <> '0'`);
    await trx('settings').where({ key: KEY }).update({ value: server });
  });
}
