/**
 * A Postgres server of its own for a test file: Debian's `postgresql` binaries (scripts/setup.sh
 * installs them), a cluster made with initdb in a scratch folder, started with pg_ctl on a free
 * loopback port and removed on close. Connections from 127.0.0.1 need the password (scram-sha-256),
 * so a test can have one refused. As root (CI, these machines) the cluster runs as the `postgres`
 * user, which initdb requires; otherwise as the user running the tests.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestPostgres {
  /** `postgres://orgreport:PASSWORD@127.0.0.1:PORT/postgres`. */
  url: string;
  /** The same server with a wrong password. */
  wrongPasswordUrl: string;
  port: number;
  password: string;
  close(): Promise<void>;
}

/** The folder of Debian's Postgres binaries (the newest installed), else the PATH's. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts a fresh cluster; throws naming the package to install when Postgres is missing. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const tool = (name: string) => (bin ? join(bin, name) : name);
  const asRoot = process.getuid?.() === 0;
  // As root the server runs as `postgres`, which must reach the folder: not under the run's
  // private temporary folder.
  const dir = await mkdtemp(join(asRoot ? '/tmp' : tmpdir(), 'orgreport-pg-'));
  const password = `pg-test-${Math.random().toString(36).slice(2)}`;
  const data = join(dir, 'data');
  const pwfile = join(dir, 'password');
  await writeFile(pwfile, `${password}\n`);
  let user: { uid: number; gid: number } | undefined;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    user = { uid: Number(stdout.trim()), gid: Number(group.trim()) };
    await chown(dir, user.uid, user.gid);
    await chown(pwfile, user.uid, user.gid);
  }
  await chmod(dir, 0o700);
  const as = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
  try {
    await as(tool('initdb'), [
      '-D',
      data,
      '-U',
      'orgreport',
      `--pwfile=${pwfile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    await rm(dir, { recursive: true, force: true });
    if (code === 'ENOENT') {
      throw new Error('Postgres is not installed: run bash scripts/setup.sh (or apt-get install postgresql)');
    }
    throw error;
  }
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  await as(tool('pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const url = `postgres://orgreport:${password}@127.0.0.1:${port}/postgres`;
  return {
    url,
    wrongPasswordUrl: `postgres://orgreport:not-${password}@127.0.0.1:${port}/postgres`,
    port,
    password,
    async close() {
      await as(tool('pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
