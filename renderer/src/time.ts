// One clock for the whole window: 24-hour, zero-padded, the date (ISO) in front when it is not
// today. Never toLocaleTimeString(), whose 12/24-hour form depends on the locale and mixed with these.
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

function isoDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A start time as DevTools shows it: hh:mm:ss.mmm, with the date in front when it is not today. */
export function formatClock(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
  return sameDay(d, new Date(now)) ? time : `${isoDate(d)} ${time}`;
}

/** hh:mm:ss, with the date in front when it is not today (the call history's time column). */
export function formatTimeOfDay(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return sameDay(d, new Date(now)) ? time : `${isoDate(d)} ${time}`;
}

/** The full date and time, YYYY-MM-DD hh:mm:ss (a call's detail, a disconnection). */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  return `${isoDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A count with the locale's digit grouping (12,345), as every count in the window is shown. */
export function formatCount(n: number): string {
  return n.toLocaleString();
}
