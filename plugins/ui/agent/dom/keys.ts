// Key names as ui_act's `press` takes them ("Enter", "Control+a", "Shift+Tab") and the key events a
// browser sends for them: key, code and the legacy keyCode that older handlers still read.

export interface Key {
  key: string;
  code: string;
  keyCode: number;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  /** The modifiers' own keys, pressed first. */
  modifiers: Key[];
}

const ALIASES: Record<string, string> = {
  esc: 'Escape',
  escape: 'Escape',
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  space: ' ',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  arrowup: 'ArrowUp',
  arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft',
  arrowright: 'ArrowRight',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  insert: 'Insert',
};

const KEY_CODES: Record<string, number> = {
  Backspace: 8,
  Tab: 9,
  Enter: 13,
  Shift: 16,
  Control: 17,
  Alt: 18,
  Escape: 27,
  ' ': 32,
  PageUp: 33,
  PageDown: 34,
  End: 35,
  Home: 36,
  ArrowLeft: 37,
  ArrowUp: 38,
  ArrowRight: 39,
  ArrowDown: 40,
  Insert: 45,
  Delete: 46,
  Meta: 91,
};

const MODIFIERS: Record<string, 'Control' | 'Shift' | 'Alt' | 'Meta'> = {
  control: 'Control',
  ctrl: 'Control',
  shift: 'Shift',
  alt: 'Alt',
  option: 'Alt',
  meta: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
};

/** Parses "Control+Shift+a"; throws with the names it takes for one it does not know. */
export function parseKey(combo: string): Key {
  const parts = combo.endsWith('++') ? [...combo.slice(0, -2).split('+'), '+'] : combo.split('+');
  const name = parts.pop() ?? '';
  const mods = new Set<string>();
  for (const part of parts) {
    const mod = MODIFIERS[part.trim().toLowerCase()];
    if (!mod) throw new Error(`unknown modifier "${part}" in "${combo}"; modifiers: Control, Shift, Alt, Meta`);
    mods.add(mod);
  }
  const key = keyName(name, combo);
  const flags = {
    ctrlKey: mods.has('Control'),
    shiftKey: mods.has('Shift'),
    altKey: mods.has('Alt'),
    metaKey: mods.has('Meta'),
  };
  const modifiers = [...mods].map((m) => ({ ...one(m), ...flags, modifiers: [] }));
  return { ...one(key), ...flags, modifiers };
}

function keyName(name: string, combo: string): string {
  if (name.length === 1) return name;
  const alias = ALIASES[name.toLowerCase()];
  if (alias) return alias;
  if (/^F([1-9]|1[0-9]|2[0-4])$/i.test(name)) return name.toUpperCase();
  const mod = MODIFIERS[name.toLowerCase()];
  if (mod) return mod;
  throw new Error(
    `unknown key "${name}" in "${combo}"; use one character, or Enter, Tab, Escape, Backspace, Delete, Space, ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown, F1–F24, with modifiers like Control+a`,
  );
}

function one(key: string): { key: string; code: string; keyCode: number } {
  if (key.length === 1) {
    const upper = key.toUpperCase();
    if (upper >= 'A' && upper <= 'Z') return { key, code: `Key${upper}`, keyCode: upper.charCodeAt(0) };
    if (key >= '0' && key <= '9') return { key, code: `Digit${key}`, keyCode: key.charCodeAt(0) };
    if (key === ' ') return { key, code: 'Space', keyCode: 32 };
    return { key, code: '', keyCode: 0 };
  }
  if (/^F\d+$/.test(key)) return { key, code: key, keyCode: 111 + Number(key.slice(1)) };
  const code = key === 'Control' || key === 'Shift' || key === 'Alt' || key === 'Meta' ? `${key}Left` : key;
  return { key, code, keyCode: KEY_CODES[key] ?? 0 };
}
