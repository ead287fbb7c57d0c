/**
 * The domain's movementView (ledger/movement.ts) of a movements row `m`, in SQL: a settlement chunk's movements get
 * their movement.created events from the statement that inserts them, instead of every row travelling to the
 * service and back. The ledger contract checks the events against movementView of the movements as listed.
 */
const MOVEMENT_VIEW = `json_build_object(
  'id', m.id,
  CASE m.account_kind WHEN 'RECEIVABLE' THEN 'receivableAccountId' ELSE 'currentAccountId' END, m.account_id,
  'movementType', m.movement_type,
  'operationType', m.operation_type,
  'subtype', m.subtype,
  'amount', trim_scale(m.amount_minor / 100.0),
  'currencyCode', m.currency_code,
  'counterParty', CASE WHEN m.counterparty_name IS NULL THEN NULL
                       ELSE json_build_object('name', m.counterparty_name, 'taxId', COALESCE(m.counterparty_tax_id, '')) END,
  'settlementId', m.settlement_id,
  'transferId', m.transfer_id,
  'movementDate', to_char(m.movement_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/**
 * CTEs to open a WITH: `insert` (an INSERT INTO movements, without RETURNING) as `moved`, then a movement.created
 * event per row it inserted, pending for the webhook dispatcher, as the outbox records them (knex-outbox.ts). Its
 * bindings are the insert's followed by the events' ids: newEventIds(n), n being the number of rows the insert makes.
 */
export const withMovementEvents = (insert: string) => `WITH moved AS (${insert} RETURNING *),
  numbered AS (SELECT moved.*, row_number() OVER (ORDER BY id) AS n FROM moved),
  recorded AS (
    INSERT INTO outbox_events (id, customer_id, type, data, occurred_at)
    SELECT e.id, m.customer_id, 'movement.created', json_build_object('movement', ${MOVEMENT_VIEW}), m.movement_date
    FROM numbered m JOIN unnest(?::text[]) WITH ORDINALITY AS e (id, n) ON e.n = m.n
    ORDER BY m.n
    RETURNING seq
  ),
  pending AS (INSERT INTO outbox_pending (seq) SELECT seq FROM recorded)`;
