import { ToolArgumentError } from '../../../shared/tool.js';

// Refs as agents see them (`e12`): one per element and page load, the same in every snapshot of
// that load, and unique across the inspector's sessions, so a ref given to the wrong session (or
// kept past a reload) is recognised and refused with what to do instead.

const REF = /^e(\d{1,15})$/;
/** Which session issued each ref, for all sessions: the newest this many. */
const MAX_OWNERS = 200_000;
const owners = new Map<number, string>();
let next = 1;

export interface Load {
  /** The app's id for its run. */
  id: string;
  /** Its number in the session (1, 2, …). */
  seq: number;
}

interface Issued {
  load: Load;
  id: number;
}

export class RefTable {
  private readonly byRef = new Map<number, Issued>();
  private readonly byElement = new Map<string, number>();

  constructor(
    private readonly sessionId: string,
    private readonly max = 20_000,
  ) {}

  /** The ref of the app's element `id` in `load`: the one it had, or a new one. */
  ref(load: Load, id: number): string {
    const key = `${load.id}:${id}`;
    let n = this.byElement.get(key);
    if (n === undefined) {
      n = next++;
      this.byElement.set(key, n);
      this.byRef.set(n, { load, id });
      owners.set(n, this.sessionId);
      if (owners.size > MAX_OWNERS) owners.delete(owners.keys().next().value as number);
      if (this.byRef.size > this.max) {
        const [oldest, issued] = this.byRef.entries().next().value as [number, Issued];
        this.byRef.delete(oldest);
        this.byElement.delete(`${issued.load.id}:${issued.id}`);
      }
    }
    return `e${n}`;
  }

  /** The app's element id a ref names in the current load; throws what to do for any other ref. */
  resolve(ref: string, current: Load): number {
    const match = REF.exec(ref.trim());
    if (!match) {
      throw new ToolArgumentError(`"${ref}" is not a ref: refs look like e12 and come from ui_snapshot`);
    }
    const n = Number(match[1]);
    const issued = this.byRef.get(n);
    if (!issued) {
      const owner = owners.get(n);
      if (owner && owner !== this.sessionId) {
        throw new ToolArgumentError(
          `ref ${ref} belongs to another session (${owner}), not this one (${this.sessionId}): pass sessionId "${owner}" to act there, or take a snapshot here (ui_snapshot) and use its refs`,
        );
      }
      throw new ToolArgumentError(
        `ref ${ref} is unknown here: refs come from ui_snapshot and last until the page reloads (and the inspector restarts). Take a new snapshot and use its refs`,
      );
    }
    if (issued.load.id !== current.id) {
      throw new ToolArgumentError(
        `ref ${ref} is from an earlier page load (load ${issued.load.seq}; the page is now on load ${current.seq}: it reloaded or navigated). Take a new snapshot and use its refs`,
      );
    }
    return issued.id;
  }
}
