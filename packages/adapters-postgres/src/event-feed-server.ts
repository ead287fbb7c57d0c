import type { Knex } from 'knex';
import { ensureSetting } from './settings';

/**
 * The servers whose transaction ids the outbox's are (migration 048), space separated, the one serving first:
 * the setting the events feed reads each page (its positions name the first, and it takes those of any).
 */
export const FEED_SERVERS_SQL = `SELECT COALESCE(
  (SELECT string_to_array(value, ' ') FROM settings WHERE key = 'events_feed_server'),
  ARRAY[(SELECT system_identifier::text FROM pg_control_system())]) AS servers`;

/**
 * The events feed orders by transaction ids (migration 048), which count on the server that gave them. Started on
 * another server (its system identifier differs: a dump restored, a move by logical replication, pg_upgrade), the
 * service keeps the ids held when this server's count is past all of them (pg_upgrade carries it over): they still
 * come before every new one, and cursors of the old server stay good. Otherwise (a server whose count is behind),
 * it sets them to 0, so those events come first in the feed in the order they were recorded, and only this
 * server's cursors are taken from then on. Run once per start, under the migrations' lock.
 */
export async function adoptFeedServer(knex: Knex): Promise<void> {
  const { rows } = await knex.raw<{ rows: Array<{ server: string }> }>('SELECT system_identifier::text AS server FROM pg_control_system()');
  const [{ server }] = rows;
  const kept = (await ensureSetting(knex, 'events_feed_server', server)).split(' ');
  if (kept[0] === server) return;
  await knex.transaction(async (trx) => {
    const { rows: found } = await trx.raw<{ rows: Array<{ behind: boolean }> }>(
      'SELECT EXISTS (SELECT 1 FROM outbox_events WHERE txid >= pg_snapshot_xmax(pg_current_snapshot())) AS behind',
    );
    if (found[0].behind) await trx.raw(`UPDATE outbox_events SET txid = '0' WHERE txid <> '0'`);
    const servers = found[0].behind ? [server] : [server, ...kept];
    await trx('settings')
      .where({ key: 'events_feed_server' })
      .update({ value: servers.join(' ') });
  });
}
