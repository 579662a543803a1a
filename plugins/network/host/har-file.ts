import { ToolArgumentError } from '../../../shared/tool.js';
import type { NetworkHost } from './host-api.js';

/** The largest HAR file an import reads. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/**
 * A HAR file's text, read the one safe way (opened once without blocking, checked on the handle, no
 * file of the data dir but its exports); refused with the reason, quoting nothing of the file.
 */
export async function readHarFile(instance: NetworkHost, path: string): Promise<string> {
  try {
    return await instance.readUserFile(path, MAX_IMPORT_BYTES, 'HAR file');
  } catch (e) {
    throw new ToolArgumentError((e as Error).message);
  }
}
