import type { CSSProperties } from 'react';

/**
 * `%c` CSS as the window applies it: only these properties, only values without url(), expressions,
 * escapes or other functions than colors; anything else is left out. DevTools applies a similar list.
 */
const ALLOWED = new Set([
  'color',
  'background',
  'background-color',
  'font-weight',
  'font-style',
  'font-size',
  'font-family',
  'text-decoration',
  'text-transform',
  'letter-spacing',
  'line-height',
  'padding',
  'padding-left',
  'padding-right',
  'margin-left',
  'margin-right',
  'border',
  'border-radius',
  'border-color',
  'border-width',
  'border-style',
]);

const COLOR_FN = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([\d\s.,%/+-]*\)$/i;
const SAFE_WORD = /^[#\w.%+-]+$/;
const FONT_NAME = /^["']?[\w -]+["']?$/;

/** The safe part of a `%c` style string as React style properties (camelCased). */
export function safeStyle(css: string): CSSProperties {
  const style: Record<string, string> = {};
  for (const declaration of css.slice(0, 1000).split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (!ALLOWED.has(name) || !value || value.length > 200 || !safeValue(name, value)) continue;
    style[name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
  }
  // A font size within what a row can hold.
  if (
    style.fontSize &&
    !/^(?:[0-9]{1,2}(?:\.\d+)?px|[0-9.]{1,4}em|small|medium|large|larger|smaller)$/.test(style.fontSize)
  )
    delete style.fontSize;
  return style as CSSProperties;
}

function safeValue(name: string, value: string): boolean {
  if (/[\\<>{}@]|url\s*\(|expression\s*\(|var\s*\(|attr\s*\(|image/i.test(value)) return false;
  return value.split(/\s+(?![^(]*\))/).every((part) => {
    if (part.includes('(')) return COLOR_FN.test(part);
    if (name === 'font-family') return part.split(',').every((f) => f === '' || FONT_NAME.test(f.trim()));
    return SAFE_WORD.test(part.replace(/,$/, ''));
  });
}

/**
 * A style the row can show in either theme: a text color the app set without a background gets the
 * plain background (white or black) it reads on, as the theme's own may not (red on dark gray).
 */
export function readable(style: CSSProperties): CSSProperties {
  if (!style.color || style.background || style.backgroundColor) return style;
  const rgb = toRgb(String(style.color));
  if (!rgb) return style;
  const l = luminance(rgb);
  const onWhite = 1.05 / (l + 0.05);
  const onBlack = (l + 0.05) / 0.05;
  return { ...style, backgroundColor: onWhite >= onBlack ? '#fff' : '#000', borderRadius: 2, padding: '0 2px' };
}

let canvas: CanvasRenderingContext2D | null | undefined;

/** A CSS color as [r, g, b] 0–255, read by the browser itself (a 2D context normalizes any color). */
function toRgb(color: string): [number, number, number] | undefined {
  canvas ??= globalThis.document?.createElement('canvas').getContext('2d') ?? null;
  if (!canvas) return undefined;
  canvas.fillStyle = '#010203';
  canvas.fillStyle = color;
  const value = String(canvas.fillStyle);
  if (value === '#010203' && !/^#010203$/i.test(color)) return undefined;
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  if (hex) return [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16), Number.parseInt(hex[3]!, 16)];
  const fn = /rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)/.exec(value);
  return fn ? [Number(fn[1]), Number(fn[2]), Number(fn[3])] : undefined;
}

function luminance([r, g, b]: [number, number, number]): number {
  const c = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
}

/** The text cut where each `%c` style starts: [text, style] pieces, in order. */
export function styledPieces(text: string, styles: readonly [number, string][]): [string, CSSProperties][] {
  const pieces: [string, CSSProperties][] = [];
  let from = 0;
  let style: CSSProperties = {};
  for (const [at, css] of styles) {
    if (at > from) pieces.push([text.slice(from, at), style]);
    from = Math.max(from, at);
    style = readable(safeStyle(css));
  }
  if (from < text.length) pieces.push([text.slice(from), style]);
  return pieces;
}
