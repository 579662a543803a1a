import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

// A file the user (or an agent) names for the inspector to read — a HAR to import. The data dir
// holds the tokens, the call history and captured traffic: none of it may come back out this way.

/** The folder of the data dir whose files may be read back (what `saveExport` wrote). */
export const READABLE_DATA_DIR_FOLDER = 'exports';

export class UserFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserFileError';
  }
}

/**
 * The text of a file the user named, at most `maxBytes`. Opened once, without blocking (a FIFO or a
 * device swapped in for the file is refused, never waited on: a blocking open of a FIFO holds one of
 * libuv's four file threads for ever), checked on the opened handle (a regular file, its size),
 * then read. Files in the data dir are refused, except those in its `exports/` folder. Errors say
 * why and what to do, and quote nothing of the file.
 */
export async function readUserFile(
  path: string,
  options: { dataDir: string; maxBytes: number; what: string },
): Promise<string> {
  const { what, maxBytes } = options;
  if (!isAbsolute(path)) {
    throw new UserFileError(`path must be absolute (got "${shown(path)}"); pass the full path of the ${what}`);
  }
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'there is no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'you may not read it'
          : code === 'EISDIR'
            ? 'it is a folder'
            : `it cannot be opened (${code ?? 'error'})`;
    throw new UserFileError(`cannot read the ${what} ${shown(path)}: ${why}; check the path and its permissions`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new UserFileError(
        `${shown(path)} is ${info.isDirectory() ? 'a folder' : 'not a regular file (a pipe, socket or device)'}; pass the path of the ${what}`,
      );
    }
    if (await inDataDir(handle, path, info, options.dataDir)) {
      throw new UserFileError(
        `${shown(path)} is in the inspector's data dir, which holds its tokens, history and captured traffic; only files in its ${READABLE_DATA_DIR_FOLDER}/ folder can be read back. Copy the file elsewhere if you mean it`,
      );
    }
    if (info.size > maxBytes) throw tooBig(path, info.size, maxBytes, what);
    // The size on file may be wrong (/proc files say 0) or grow: read at most one byte past the bound.
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(info.size + 1, 64 * 1024)));
    let chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw tooBig(path, total, maxBytes, what);
      chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
    }
    const text = Buffer.concat(chunks, total).toString('utf8');
    chunks = [];
    return text;
  } finally {
    await handle.close().catch(() => {});
  }
}

function tooBig(path: string, size: number, maxBytes: number, what: string): UserFileError {
  return new UserFileError(
    `${shown(path)} is ${size > maxBytes ? `over ${maxBytes}` : size} bytes, over the ${maxBytes} bytes a ${what} may be; make it smaller`,
  );
}

/**
 * Whether the opened file lies in the data dir (outside `exports/`): by the path the descriptor
 * really has (Linux tells it; elsewhere the path resolved now), and, for a hard link elsewhere, by
 * being one of the data dir's own top-level files (the tokens).
 */
async function inDataDir(handle: FileHandle, path: string, info: Stats, dataDir: string): Promise<boolean> {
  const root = await realpath(dataDir).catch(() => dataDir);
  const opened =
    (await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined)) ?? (await realpath(path).catch(() => path));
  const rel = relative(root, opened);
  const inside = rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  if (inside) return !(rel.split(sep)[0] === READABLE_DATA_DIR_FOLDER && rel.includes(sep));
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    const own = await stat(join(root, name)).catch(() => undefined);
    if (own?.isFile() && own.ino === info.ino && own.dev === info.dev) return true;
  }
  return false;
}

/** A path as quoted in a message: a long one cut. */
function shown(path: string): string {
  return path.length > 300 ? `${path.slice(0, 300)}…` : path;
}
