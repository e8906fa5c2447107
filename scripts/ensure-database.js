// Creates the database named in DATABASE_URL when it does not exist yet (npm start on a fresh machine).
const { Client } = require('pg');

async function main() {
  const target = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/vmmarket');
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name))
    throw new Error(`DATABASE_URL names database "${name}": use letters, digits and _`);
  const admin = new URL(target);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name}"`);
      console.log(`created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  console.error(`cannot prepare the database: ${error.message}`);
  process.exit(1);
});
