import { Worker } from 'node:worker_threads';

/** What the worker (function-scan.mjs) finds in a script: see ScriptFunctions. */
interface Tables {
  lineStarts: Int32Array;
  table: Int32Array;
  names: string[];
}

export interface FunctionScannerOptions {
  /** Longest one script may take to parse; past it the worker is ended and the script keeps the engine's names. Default 5 s. */
  deadlineMs?: number;
  /** Scripts waiting for the worker; scripts past it are not parsed (their frames keep the engine's names). Default 8. */
  maxQueued?: number;
}

interface Job {
  text: string;
  resolve(functions: ScriptFunctions | undefined): void;
}

/**
 * Parses scripts for their functions in one worker thread (function-scan.mjs), one script at a
 * time, so that a large script never blocks the core's event loop. The worker starts with the
 * first script, is ended when a parse runs past its deadline (the next script starts another) and
 * when the scanner is closed; an idle worker does not keep the process alive.
 */
export class FunctionScanner {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private running: (Job & { id: number; timer: NodeJS.Timeout }) | undefined;
  private nextId = 0;
  private closed = false;
  private readonly deadlineMs: number;
  private readonly maxQueued: number;

  constructor(options: FunctionScannerOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? 5000;
    this.maxQueued = options.maxQueued ?? 8;
  }

  /** The script's functions; undefined when it does not parse, took too long, or waited behind too many. */
  parse(text: string): Promise<ScriptFunctions | undefined> {
    if (this.closed || this.queue.length >= this.maxQueued) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.queue.push({ text, resolve });
      this.next();
    });
  }

  /** Ends the worker; scripts being or waiting to be parsed keep the engine's names. */
  close(): void {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve(undefined);
    this.finish(undefined);
    this.stop();
  }

  private next(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    const worker = this.start();
    const id = ++this.nextId;
    const timer = setTimeout(() => {
      this.stop();
      this.finish(undefined);
    }, this.deadlineMs);
    this.running = { ...job, id, timer };
    worker.ref();
    worker.postMessage({ id, text: job.text });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./function-scan.mjs', import.meta.url), {
      workerData: WORKER_TAG,
      execArgv: [], // plain JavaScript: none of the core's flags or loaders (tsx) apply
      // An 8 MiB script (react-dom 7 times) parses within 256 MB; past this the worker dies, not the core.
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.on('message', (message: { id: number; result: Tables | null }) => {
      if (message.id !== this.running?.id) return;
      const r = message.result;
      this.finish(r ? new ScriptFunctions(r.lineStarts, r.table, r.names) : undefined);
    });
    // A worker that failed or ended (a crash, out of memory): the script keeps the engine's names.
    const lost = () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.finish(undefined);
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    this.worker = worker;
    return worker;
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  private finish(functions: ScriptFunctions | undefined): void {
    const job = this.running;
    if (!job) return;
    this.running = undefined;
    clearTimeout(job.timer);
    this.worker?.unref(); // idle: ref'd again by the next script
    job.resolve(functions);
    this.next();
  }
}

/** function-scan.mjs listens only when started with this (not when another worker imports it). */
const WORKER_TAG = 'porthole-function-scan';
const WORKER_HEAP_MB = 512;

/**
 * The functions of a generated script, for naming stack frames: a frame's name is the name of the
 * function it is in, not of whatever stands at its position (a call's callee). Each function is
 * kept as four numbers (start, end, its parent, where its name is written), found by parsing the
 * script once with acorn in a worker (FunctionScanner); the name's place is then looked up in the source map.
 */
export class ScriptFunctions {
  /** Made from what function-scan.mjs finds (FunctionScanner.parse). */
  constructor(
    private readonly lineStarts: Int32Array,
    /** start, end, parent index (-1: none), name offset (-1: anonymous) per function, by start. */
    private readonly table: Int32Array,
    /** Each function's name as the script writes it ('' for an anonymous one). */
    private readonly names: readonly string[],
  ) {}

  /** About how many bytes this holds. */
  get bytes(): number {
    return this.lineStarts.byteLength + this.table.byteLength + this.names.reduce((n, s) => n + 16 + s.length * 2, 0);
  }

  /**
   * The innermost function around a place (line and column from 1): where its name is written (a
   * place to look up in the map) and the name written there; undefined outside any function or for
   * an anonymous one.
   */
  nameAt(line: number, column: number): { line: number; column: number; name: string } | undefined {
    const offset = this.offsetOf(line, column);
    if (offset === undefined) return undefined;
    const t = this.table;
    // The last function starting at or before the place; if it ended before, the one around the
    // place is one of its ancestors.
    let lo = 0;
    let hi = t.length / 4 - 1;
    let i = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (t[mid * 4]! <= offset) {
        i = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    while (i >= 0 && t[i * 4 + 1]! <= offset) i = t[i * 4 + 2]!;
    if (i < 0) return undefined;
    const at = t[i * 4 + 3]!;
    return at < 0 ? undefined : { ...this.placeOf(at), name: this.names[i]! };
  }

  private offsetOf(line: number, column: number): number | undefined {
    const start = this.lineStarts[line - 1];
    return start === undefined ? undefined : start + Math.max(0, column - 1);
  }

  private placeOf(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }
}
