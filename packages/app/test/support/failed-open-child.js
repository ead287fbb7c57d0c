// Opens embedded storage on DATA_DIR, expecting the open to fail, then locks the directory again in this same
// process. Prints what happened to each: a failed open must let go of the directory before it throws.
const { loadConfig } = require('../../dist/src/config');
const { lockDataDir } = require('../../dist/src/data-dir-lock');
const { openStorage } = require('../../dist/src/storage');

async function main() {
  const config = loadConfig();
  await openStorage(config).then(
    () => process.stdout.write('opened\n'),
    () => process.stdout.write('open failed\n'),
  );
  const lock = await lockDataDir(config.dataDir);
  process.stdout.write('locked\n');
  await lock.release();
}

// Exits outright: a lock the failed open kept would keep this process alive.
main().then(
  () => process.exit(0),
  (error) => {
    process.stdout.write(`${error.message}\n`);
    process.exit(1);
  },
);
