/** How deep and how many values a JSON text may hold before anything parses or validates it. */
export interface JsonBudget {
  /** Nesting of arrays and objects; the frame object itself is level 1. */
  maxDepth: number;
  /** Array elements plus object members, counted over the whole text. */
  maxValues: number;
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;

/**
 * Why `text` is over the budget, or undefined when it is within it. One linear pass over the raw
 * text that stops at the first level or value past the budget, so a hostile frame costs no more than
 * that prefix: JSON.parse of 8 million nested arrays takes seconds, JSON.stringify and zod recurse
 * on depth, and a schema error per element of a huge array needs gigabytes. Strings are skipped
 * whole (indexOf), so text-heavy frames cost almost nothing. Any text is accepted, JSON or not.
 */
export function overJsonBudget(text: string, budget: JsonBudget, tally?: JsonTally): string | undefined {
  let depth = 0;
  let deepest = 0;
  // Every element or member but a container's first is preceded by a comma; the first is counted
  // when something other than the closing bracket follows the opening one.
  let values = 0;
  let opened = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === LF || c === CR) continue;
    if (opened) {
      opened = false;
      if (c !== CLOSE_ARRAY && c !== CLOSE_OBJECT && ++values > budget.maxValues) return tooMany(budget);
    }
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return undefined;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > budget.maxDepth) return `it nests arrays and objects deeper than ${budget.maxDepth} levels`;
      if (depth > deepest) deepest = depth;
      opened = true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === COMMA) {
      if (++values > budget.maxValues) return tooMany(budget);
    }
  }
  if (tally) {
    tally.values = values;
    tally.depth = deepest;
  }
  return undefined;
}

/** What a text within the budget holds, for a caller that joins texts into one frame. */
export interface JsonTally {
  values: number;
  depth: number;
}

function tooMany(budget: JsonBudget): string {
  return `it holds more than ${budget.maxValues} values (array elements and object members)`;
}

/** Index of the quote that closes the string opened at `open`, or -1 when the text ends first. */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
