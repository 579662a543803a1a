import type { StorageProblem, StorageStatus } from '../../shared/storage-status.js';

// One place that knows whether the data dir can be written. Writers report each failure and each
// success; a problem is logged once when it starts and once when it ends (not at every retry), and
// `inspector_get_status` and the window show it meanwhile.

type Area = StorageProblem['area'];

const WHAT: Record<Area, string> = {
  sessions: 'sessions and their captured data',
  history: 'the call history',
  instance: 'instance.json (how `porthole mcp` finds this inspector)',
};

function kindOf(code: string): StorageProblem['kind'] {
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'full';
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return 'read-only';
  if (code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENOTEMPTY' || code === 'EEXIST') return 'not-a-file';
  return 'failed';
}

function problemMessage(area: Area, kind: StorageProblem['kind'], path: string, code: string): string {
  const kept = `${WHAT[area]} ${area === 'instance' ? 'is' : 'are'} kept in memory and written as soon as it works again (tried again every few seconds)`;
  if (kind === 'full') return `the disk holding ${path} is full (${code}): ${kept}; free some space`;
  if (kind === 'read-only')
    return `${path} cannot be written (${code}: the disk is read-only or the file is not yours): ${kept}; make it writable`;
  if (kind === 'not-a-file')
    return `${path} cannot be written (${code}: a folder is where the file should be, or a file where its folder should be): ${kept}; move it away`;
  return `${path} could not be written (${code}): ${kept}`;
}

export class DataDirHealth {
  private readonly problems = new Map<Area, StorageProblem>();
  private readonly listeners = new Set<(status: StorageStatus) => void>();

  constructor(private readonly log: (line: string) => void = (line) => console.error(line)) {}

  /** A write of `area` failed: a new problem (or a different one) is logged and announced, a repeat is not. */
  failed(area: Area, path: string, error: unknown): void {
    const code = String((error as NodeJS.ErrnoException | undefined)?.code ?? 'EIO');
    const kind = kindOf(code);
    const known = this.problems.get(area);
    if (known && known.kind === kind && known.code === code) return;
    const problem: StorageProblem = {
      area,
      kind,
      path,
      code,
      since: known?.since ?? Date.now(),
      message: problemMessage(area, kind, path, code),
    };
    this.problems.set(area, problem);
    this.log(`[porthole] ${problem.message}`);
    this.changed();
  }

  /** A write of `area` succeeded: a problem it had ends (logged once). */
  succeeded(area: Area): void {
    const known = this.problems.get(area);
    if (!known) return;
    this.problems.delete(area);
    this.log(`[porthole] ${WHAT[area]} can be written again (${known.path}); what was missed meanwhile is written now`);
    this.changed();
  }

  /** Whether `area` is failing now (writers then try less often). */
  failing(area: Area): boolean {
    return this.problems.has(area);
  }

  status(): StorageStatus {
    return { writable: this.problems.size === 0, problems: [...this.problems.values()] };
  }

  onChange(listener: (status: StorageStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    const status = this.status();
    for (const listener of this.listeners) listener(status);
  }
}
