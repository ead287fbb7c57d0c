import type { Knex } from 'knex';

/**
 * Recipients (contacts). Deleted for good (nothing references them: transfers copy the destination), so the
 * table holds only live recipients and a deleted one's CBU/CVU and alias are free again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE contacts (
      id                BIGSERIAL PRIMARY KEY,
      customer_id       BIGINT NOT NULL REFERENCES customers (id),
      name              TEXT NOT NULL,
      tax_id            TEXT NOT NULL,
      cbu_cvu           TEXT NOT NULL,
      alias             TEXT,
      entity            TEXT NOT NULL,
      creation_date     TIMESTAMPTZ NOT NULL,
      modification_date TIMESTAMPTZ NOT NULL,
      version           INTEGER NOT NULL
    );
    -- No two recipients of a customer share an account or an alias (an alias in any letter case names one account).
    CREATE UNIQUE INDEX contacts_cbu_cvu ON contacts (customer_id, cbu_cvu);
    CREATE UNIQUE INDEX contacts_alias ON contacts (customer_id, lower(alias));
    -- The list, newest first, and its taxId filter.
    CREATE INDEX contacts_recent ON contacts (customer_id, creation_date DESC, id DESC);
    CREATE INDEX contacts_tax_id ON contacts (customer_id, tax_id, creation_date DESC, id DESC);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE contacts');
}
