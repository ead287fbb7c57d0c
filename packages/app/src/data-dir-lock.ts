import { link, rename, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import path from 'node:path';

export interface DataDirLock {
  /** Stops answering; closing the listening socket also removes its file, which this process bound. */
  release(): Promise<void>;
}

/**
 * Makes this process the only one using `dataDir` until it releases the lock or dies.
 *
 * Node has no flock, and a pid file outlives a killed process (and its pid may be reused). The lock is a Unix
 * socket in the directory that this process listens on: the kernel stops the listening when the process dies,
 * however it dies, so a socket nobody answers on (connect refused) is a dead holder's and is taken over. A
 * socket file, not Linux's abstract namespace: it works on macOS too, and it is found through the directory
 * itself, whatever path or mount reaches it. Whoever connects is told the holder's pid, for the message.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const socketPath = lockSocketPath(dataDir);
  for (let attempt = 0; ; attempt++) {
    const server = createServer((peer) => peer.end(`${process.pid}\n`));
    try {
      await listen(server, socketPath);
      return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
        throw new Error(`cannot lock the data directory ${dataDir} (the lock is a Unix socket there): ${(error as Error).message}`);
      }
      // A few rounds at most: each one found a dead holder's socket gone or removed it.
      if (attempt === 3) throw error;
    }
    const holder = await ask(socketPath);
    if (holder.alive) {
      throw new Error(
        `the data directory ${dataDir} is in use by process ${holder.pid ?? '(pid not given)'}: an embedded data directory belongs ` +
          'to one process at a time. Stop that process first, or give this one another DATA_DIR (or a DATABASE_URL).',
      );
    }
    await removeIfDead(socketPath);
  }
}

/**
 * Whether a live process holds `dataDir`'s lock, and its pid. Does not take the lock: the admin CLI asks it
 * before trusting the address the holder published.
 */
export function lockHolder(dataDir: string): Promise<{ alive: boolean; pid?: number }> {
  return ask(lockSocketPath(dataDir));
}

/**
 * Moves the socket aside under this process's own name before checking it again and deleting it: two processes
 * that both found the dead holder's socket must not delete the live one the quicker of them bound meanwhile.
 * Whoever moved a live socket links it back, and its next attempt finds it held.
 */
async function removeIfDead(socketPath: string): Promise<void> {
  const aside = `${socketPath}.${process.pid}`;
  try {
    await rename(socketPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((await ask(aside)).alive) await link(aside, socketPath).catch(() => undefined);
  await rm(aside, { force: true });
}

/**
 * Asks a socket's holder for its pid. A refused or missing socket has no live holder; any other failure (no
 * permission, not a socket) leaves it unknown, so it stops the caller with the socket's path and the reason.
 */
function ask(socketPath: string): Promise<{ alive: boolean; pid?: number }> {
  return new Promise((resolve, reject) => {
    let said = '';
    let connected = false;
    const socket = connect(socketPath)
      .setEncoding('utf8')
      .on('connect', () => (connected = true))
      .on('data', (chunk: string) => (said += chunk))
      .on('end', () => resolve({ alive: true, pid: Number.parseInt(said, 10) || undefined }))
      .on('error', (error: NodeJS.ErrnoException) => {
        if (connected) resolve({ alive: true });
        else if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve({ alive: false });
        else reject(new Error(`cannot ask the lock socket ${socketPath} which process holds its data directory: ${error.message}`));
      });
    // A holder whose event loop is busy has still accepted the connection: it is alive, pid unknown.
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve({ alive: connected });
    });
  });
}

function listen(server: Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => server.once('error', reject).listen(socketPath, () => resolve()));
}

/** Longest socket path the platform takes (sun_path less its NUL); Node cuts longer ones short without a word. */
const SOCKET_PATH_MAX = process.platform === 'linux' ? 107 : 103;

/** The socket's path, relative to the working directory when that is shorter (the default `./.data` always fits). */
function lockSocketPath(dataDir: string): string {
  const absolute = path.join(dataDir, 'owner.sock');
  const relative = path.relative(process.cwd(), absolute);
  const shorter = relative.length < absolute.length ? relative : absolute;
  // Room for the name it is moved aside under: a dot and a pid of up to 7 digits.
  if (Buffer.byteLength(shorter) + 8 > SOCKET_PATH_MAX) {
    throw new Error(`the data directory ${dataDir} has too long a path for its lock socket: use a shorter DATA_DIR, or start from a directory nearer to it`);
  }
  return shorter;
}
