import type { LinkStatus } from '../../../shared/link-status.js';
import { secretMatches } from '../secrets.js';

/** Shortest pairing token `--lan <token>` accepts, and how varied it must be (a generated one has 43 characters). */
export const MIN_PAIRING_TOKEN_CHARS = 24;
const MIN_DISTINCT_CHARS = 12;

/** Why a pairing token the user chose is too weak to guess-proof the LAN link, or undefined when it is fine. */
export function weakPairingToken(token: string): string | undefined {
  const distinct = new Set(token).size;
  if (token.length >= MIN_PAIRING_TOKEN_CHARS && distinct >= MIN_DISTINCT_CHARS && !/\s/.test(token)) return undefined;
  return `--lan needs a pairing token of at least ${MIN_PAIRING_TOKEN_CHARS} random characters (${MIN_DISTINCT_CHARS} or more different ones, no spaces; about 128 bits); pass --lan without a value and the inspector makes one, keeps it in <data-dir>/lan-token and prints it`;
}

export interface PairingOptions {
  /** Wrong tokens an address may send before it has to wait; each further one doubles the wait. Default 3. */
  freeFailures?: number;
  /** The first wait, in ms. Default 1 s. */
  baseDelayMs?: number;
  /** The longest wait, in ms. Default 10 min. */
  maxDelayMs?: number;
  /** Addresses remembered (the least recently refused are forgotten first). Default 10,000. */
  maxAddresses?: number;
  /** Log lines about refusals per minute; the rest are summed up in the next line. Default 20. */
  logLinesPerMinute?: number;
  log?: (line: string) => void;
  now?: () => number;
}

export type PairingStatus = NonNullable<LinkStatus['pairing']>;

/**
 * Whose attempts count together: an IPv4 address, or an IPv6 address's /64 network (one host can
 * hold a whole /64, so counting single IPv6 addresses would not slow it down).
 */
export function pairingAddressKey(address: string): string {
  if (!address.includes(':') || address.startsWith('::ffff:')) return address;
  const [head = '', tail] = address.split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    const rest = tail ? tail.split(':') : [];
    groups.push(...Array(Math.max(0, 8 - groups.length - rest.length)).fill('0'), ...rest);
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

interface Attempts {
  failures: number;
  /** No new connection from the address before this time. */
  until: number;
}

/**
 * The LAN pairing check: a hello from off this machine must carry the token (compared in constant
 * time). An address that sends wrong tokens waits before it may connect again, twice as long after
 * each one (1 s, 2 s … 10 min after three free tries); a right token clears its record. Refusals
 * are logged, at most 20 lines a minute.
 */
export class PairingGuard {
  private readonly attempts = new Map<string, Attempts>();
  private readonly options: Required<Omit<PairingOptions, 'log'>> & Pick<PairingOptions, 'log'>;
  private refusedCount = 0;
  private lastRefused: PairingStatus['lastRefused'];
  private logWindow = { start: 0, lines: 0, unlogged: 0 };

  constructor(
    private readonly token: () => string,
    options: PairingOptions = {},
    private readonly onChange: () => void = () => {},
  ) {
    this.options = {
      freeFailures: 3,
      baseDelayMs: 1000,
      maxDelayMs: 10 * 60_000,
      maxAddresses: 10_000,
      logLinesPerMinute: 20,
      now: Date.now,
      log: (line) => console.error(`[porthole] ${line}`),
      ...options,
    };
  }

  /** Ms the address must still wait before it may connect, or 0. Counted as a refusal when not 0. */
  waitFor(address: string): number {
    const entry = this.attempts.get(pairingAddressKey(address));
    const left = entry ? entry.until - this.options.now() : 0;
    if (left <= 0) return 0;
    this.refused(
      address,
      `refused a connection from ${address}: it sent wrong pairing tokens; it may try again in ${Math.ceil(left / 1000)} s`,
    );
    return left;
  }

  /** Whether a hello's token is right; a wrong one is counted against the address. */
  check(address: string, given: string | undefined): boolean {
    if (given !== undefined && secretMatches(this.token(), given)) {
      if (this.attempts.delete(pairingAddressKey(address))) this.onChange();
      return true;
    }
    const key = pairingAddressKey(address);
    const entry = this.attempts.get(key) ?? { failures: 0, until: 0 };
    this.attempts.delete(key); // most recently refused last
    entry.failures++;
    const over = entry.failures - this.options.freeFailures;
    if (over > 0) {
      const delay = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** Math.min(over - 1, 30));
      entry.until = this.options.now() + delay;
    }
    this.attempts.set(key, entry);
    while (this.attempts.size > this.options.maxAddresses) this.attempts.delete(this.attempts.keys().next().value!);
    this.refused(
      address,
      `refused a LAN app at ${address}: ${given === undefined ? 'no pairing token' : 'a wrong pairing token'} (${entry.failures} so far${over > 0 ? `; it must wait ${Math.ceil((entry.until - this.options.now()) / 1000)} s` : ''})`,
    );
    return false;
  }

  status(): PairingStatus {
    const now = this.options.now();
    let waiting = 0;
    for (const entry of this.attempts.values()) if (entry.until > now) waiting++;
    return { refused: this.refusedCount, waiting, ...(this.lastRefused && { lastRefused: { ...this.lastRefused } }) };
  }

  private refused(address: string, line: string): void {
    this.refusedCount++;
    this.lastRefused = { address, at: this.options.now() };
    this.logLimited(line);
    this.onChange();
  }

  private logLimited(line: string): void {
    const now = this.options.now();
    const w = this.logWindow;
    if (now - w.start >= 60_000) {
      if (w.unlogged > 0) this.options.log?.(`${w.unlogged} more pairing refusals in the last minute were not logged`);
      this.logWindow = { start: now, lines: 0, unlogged: 0 };
    }
    if (this.logWindow.lines++ < this.options.logLinesPerMinute) this.options.log?.(line);
    else this.logWindow.unlogged++;
  }
}
