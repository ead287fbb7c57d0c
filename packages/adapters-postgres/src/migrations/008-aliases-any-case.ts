import type { Knex } from 'knex';

/**
 * Aliases are unique in any letter case (CTA.0000005 and cta.0000005 name the same account to a payer). Accounts
 * that already share an alias that way keep it on the oldest one; each later one gets its id as a suffix, which
 * keeps the alias at most 20 characters and makes it unique.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    UPDATE receivable_accounts ra
    SET alias = left(ra.alias, 19 - length(ra.id::text)) || '-' || ra.id, version = ra.version + 1, modification_date = now()
    WHERE EXISTS (SELECT 1 FROM receivable_accounts older WHERE lower(older.alias) = lower(ra.alias) AND older.id < ra.id);

    ALTER TABLE receivable_accounts DROP CONSTRAINT receivable_accounts_alias_key;
    CREATE UNIQUE INDEX receivable_accounts_alias_any_case ON receivable_accounts (lower(alias));
    ALTER TABLE current_accounts DROP CONSTRAINT current_accounts_alias_key;
    CREATE UNIQUE INDEX current_accounts_alias_any_case ON current_accounts (lower(alias));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX receivable_accounts_alias_any_case;
    ALTER TABLE receivable_accounts ADD CONSTRAINT receivable_accounts_alias_key UNIQUE (alias);
    DROP INDEX current_accounts_alias_any_case;
    ALTER TABLE current_accounts ADD CONSTRAINT current_accounts_alias_key UNIQUE (alias);
  `);
}
