import type { Knex } from 'knex';

/**
 * Per webhook, a lower bound of when its next attempt is due (webhook_next_due), so a claim finds the webhooks with
 * attempts due now by that time instead of walking one index entry per webhook with any attempt due, leased or
 * scheduled: fifty thousand webhooks each holding one retry hours away cost every claim a hundred milliseconds.
 * - Lowered by a trigger on every statement that makes an attempt due, or due sooner than it was (a dispatch, a
 *   retry, a test send or redelivery, a give-back, a release), whatever the path: to the earliest of those, always
 *   written, so the row's xmin tells a claim that its bound moved since the claim's snapshot. Rows in webhook order,
 *   so transactions lowering several bounds take them in one order.
 * - Raised by the claim that reads the webhook, to when its next attempt is due as that claim leaves it (its own
 *   leases lapse: a lower bound covers them), only if the row is still the one its snapshot read and not locked:
 *   a raise never hides an attempt a transaction the claim could not see made due.
 * - NULL: no attempt due, leased or scheduled. Left too low (attempts sent, held or deleted since), the bound costs
 *   one claim's read of that webhook, which raises it.
 * As with 023, all instances move to this version together: the code before it claims without raising bounds and
 * schedules a batch's retries webhook by webhook, in any order, which would deadlock with a dispatch.
 */
/** When `row`'s attempt is due: its lease's end while leased, else its next attempt's time. */
const due = (row: string) => `COALESCE(${row}.claimed_until, ${row}.next_attempt_at)`;
const WORK = (row: string) => `${row}.status = 'PENDING' AND ${due(row)} IS NOT NULL`;

/**
 * The earliest due time per webhook of the rows `n` of `from`, made the bound where it is earlier; with
 * `presentOnly`, for the webhooks that exist (migration 034: a deleted webhook's attempts outlive it), each read
 * under a key-share lock, as the foreign key's check takes it: one being deleted is waited for, and passed over
 * once gone, where the check would fail the statement.
 */
const lower = (from: string, presentOnly: boolean) => `
  INSERT INTO webhook_next_due AS b (webhook_id, due_at)
  SELECT n.webhook_id, min(${due('n')}) ${from}
  GROUP BY n.webhook_id ${presentOnly ? 'HAVING EXISTS (SELECT 1 FROM webhooks w WHERE w.id = n.webhook_id FOR KEY SHARE)' : ''} ORDER BY n.webhook_id
  ON CONFLICT (webhook_id) DO UPDATE SET due_at = LEAST(b.due_at, excluded.due_at);`;

/** The function of the triggers lowering the bounds, created or replaced. */
export const lowerNextDueFunctionSql = (presentOnly: boolean) => `
    CREATE OR REPLACE FUNCTION lower_webhook_next_due() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${lower(`FROM new_rows n WHERE ${WORK('n')}`, presentOnly)}
      ELSE
        -- A lease taken or an attempt ended, held or sent moves nothing sooner: no row written.
        ${lower(
          `FROM new_rows n JOIN old_rows o ON o.id = n.id
          WHERE ${WORK('n')} AND NOT (${WORK('o')} AND ${due('o')} <= ${due('n')})`,
          presentOnly,
        )}
      END IF;
      RETURN NULL;
    END
    $fn$;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE webhook_next_due (
      webhook_id BIGINT PRIMARY KEY REFERENCES webhooks (id) ON DELETE CASCADE,
      due_at     TIMESTAMPTZ
    );
    CREATE INDEX webhook_next_due_by_time ON webhook_next_due (due_at, webhook_id) WHERE due_at IS NOT NULL;

    ${lowerNextDueFunctionSql(false)}
    CREATE TRIGGER webhook_deliveries_due_insert AFTER INSERT ON webhook_deliveries REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION lower_webhook_next_due();
    CREATE TRIGGER webhook_deliveries_due_update AFTER UPDATE ON webhook_deliveries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION lower_webhook_next_due();

    INSERT INTO webhook_next_due (webhook_id, due_at)
    SELECT d.webhook_id, min(${due('d')}) FROM webhook_deliveries d WHERE ${WORK('d')} GROUP BY d.webhook_id;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION lower_webhook_next_due() CASCADE; DROP TABLE webhook_next_due;');
}
