import type { Knex } from 'knex';
import { ensureSetting } from './settings';

const KEY = 'events_feed_server';
const THIS_SERVER_SQL = 'SELECT system_identifier::text FROM pg_control_system()';

/**
 * The servers whose transaction ids the outbox's are (migration 048), space separated, the one serving first:
 * the setting the events feed reads each page (its positions name the first, and it takes those of any).
 */
export const FEED_SERVERS_SQL = `SELECT COALESCE(
  (SELECT string_to_array(value, ' ') FROM settings WHERE key = '${KEY}'),
  ARRAY[(${THIS_SERVER_SQL})]) AS servers`;

/**
 * The events feed orders by transaction ids (migration 048), which count on the server that gave them. Started on
 * another server (its system identifier differs: a dump restored, a move by logical replication, pg_upgrade), the
 * service keeps the ids held when this server's count is past all of them (pg_upgrade carries it over): they still
 * come before every new one, and cursors of the old server stay good. Otherwise (a server whose count is behind),
 * it sets them to 0, so those events come first in the feed in the order they were recorded, and only this
 * server's cursors are taken from then on. Run once per start, under the migrations' lock.
 */
export async function adoptFeedServer(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: Array<{ server: string }> }>(`SELECT (${THIS_SERVER_SQL}) AS server`);
  const [{ server }] = rows;
  const kept = (await ensureSetting(knex, KEY, server)).split(' ');
  if (kept[0] === server) return;
  await knex.transaction(async (trx) => {
    const { rows: found } = await trx.raw<{ rows: Array<{ behind: boolean }> }>(
      'SELECT EXISTS (SELECT 1 FROM outbox_events WHERE txid >= pg_snapshot_xmax(pg_current_snapshot())) AS behind',
    );
    if (found[0].behind) await trx.raw(`UPDATE outbox_events SET txid = '0' WHERE txid <> '0'`);
    const servers = found[0].behind ? [server] : [server, ...kept];
    await trx('settings')
      .where({ key: KEY })
      .update({ value: servers.join(' ') });
  });
}
