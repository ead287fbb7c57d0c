import pg from 'pg';

export default async function teardown(): Promise<void> {
  const child = globalThis.__embeddedPostgres;
  if (child) {
    child.stdin?.end();
    child.kill('SIGTERM');
  }
  const serverUrl = process.env.RCS_TEST_SERVER_URL;
  const name = process.env.RCS_TEST_DATABASE;
  if (serverUrl && name) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
