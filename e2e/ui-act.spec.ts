import { expect, test } from '@playwright/test';
import { refOf, uiEnv } from './support/ui-env.js';

// The ui plugin in Chromium: apps driven to a state through ui_act and checked through ui_snapshot
// (what an agent sees), and through the page itself (what the app did). The tools run as the
// window's runner runs them, in a real core in this process; the pages bundle the real agent.

let nextTodo = 1;
const env = uiEnv({
  '/api/todos': (req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: nextTodo++ })),
    );
  },
});

test('a React to-do app driven to a state and verified by its outline', async ({ page }) => {
  await env.open(page, 'todo');
  let outline = (await env.call('ui_snapshot')).text;
  expect(outline.split('\n')[0]).toMatch(
    /^page "todo app" http:\/\/127\.0\.0\.1:\d+\/todo\.html\?inspector=.* \(load 1\)$/,
  );
  expect(outline).toContain('heading "todos"');
  expect(outline).toMatch(/textbox "What needs to be done\?" e\d+/);
  expect(outline).toContain('text "0 items left"');
  const input = refOf(outline, 'textbox "What needs to be done?"');

  const added = await env.call('ui_act', { ref: input, action: 'fill', value: 'buy milk', submit: true });
  expect(added.failed, added.text).toBe(false);
  expect(added.text).toMatch(new RegExp(`^fill textbox "What needs to be done\\?" ${input}`));
  // What the Enter caused: the POST, its answer, and the new item rendered after it.
  expect(added.text).toMatch(/requests: 1\n {2}POST http:\/\/127\.0\.0\.1:\d+\/api\/todos → 201 \[/);
  expect(added.text).toMatch(/\+ listitem e\d+/);
  expect(added.text).toMatch(/\+ {3}checkbox "Toggle buy milk" e\d+/);
  await env.call('ui_act', { ref: input, action: 'fill', value: 'walk the dog', submit: true });
  await expect(page.locator('.todo-list li')).toHaveText(['buy milk×', 'walk the dog×']);

  outline = (await env.call('ui_snapshot')).text;
  expect(outline).toContain('text "2 items left"');
  const toggle = refOf(outline, 'checkbox "Toggle buy milk"');
  const toggled = await env.call('ui_act', { ref: toggle, action: 'check' });
  expect(toggled.text).toMatch(new RegExp(`^check checkbox "Toggle buy milk" ${toggle} checked focused: done`));
  expect(toggled.text).toContain('text "1 item left"');
  expect(toggled.text).toMatch(/\+ button "Clear completed" e\d+/);
  // Checking what is already checked does nothing, and says so.
  expect((await env.call('ui_act', { ref: toggle, action: 'check' })).text).toMatch(/note: it was already checked/);

  const active = refOf(outline, 'link "Active"');
  const filtered = await env.call('ui_act', { ref: active, action: 'click' });
  expect(filtered.text).toMatch(/url: http:\/\/127\.0\.0\.1:\d+\/todo\.html\?.*#\/active \(was /);
  expect(filtered.text).toMatch(/- listitem "?.*buy milk|- text "buy milk"|- listitem/);
  await expect(page.locator('.todo-list li')).toHaveText(['walk the dog×']);

  // The state, as the agent reads it back.
  outline = (await env.call('ui_snapshot')).text;
  expect(outline).toMatch(/link "Active" e\d+ current focused -> \/todo\.html\?.*#\/active/);
  expect(outline).toContain('checkbox "Toggle walk the dog"');
  expect(outline).not.toContain('Toggle buy milk');
  expect(outline).toContain('text "1 item left"');
  expect(outline).toMatch(/button "Clear completed" e\d+/);

  const removed = await env.call('ui_act', { ref: refOf(outline, 'button "Delete walk the dog"'), action: 'click' });
  expect(removed.text).toMatch(/- (listitem|checkbox)/);
  expect(removed.text).toContain('text "0 items left"');
  await expect(page.locator('.todo-list li')).toHaveCount(0);
});

test('a React 19 controlled form takes what is filled, picked, checked and typed', async ({ page }) => {
  await env.open(page, 'form');
  const outline = (await env.call('ui_snapshot')).text;
  expect(outline).toMatch(/form "Order" e\d+/);
  expect(outline).toMatch(/textbox "Name" e\d+ required/);
  expect(outline).toMatch(/combobox "Size" e\d+ value="Medium"/);
  expect(outline).toMatch(/ {2}option "Medium" e\d+ selected/);
  expect(outline).toMatch(/radio "basic" e\d+ checked/);

  const act = async (pattern: string | RegExp, action: string, value?: string | string[]) => {
    const answer = await env.call('ui_act', {
      ref: refOf(outline, pattern),
      action,
      ...(value !== undefined ? { value } : {}),
    });
    expect(answer.failed, answer.text).toBe(false);
    return answer.text;
  };
  expect(await act('textbox "Name"', 'fill', 'Ada Lovelace')).toMatch(
    /textbox "Name" e\d+ focused required value="Ada Lovelace"/,
  );
  await act('textbox "Email"', 'fill', 'ada@example.com');
  // The app drops digits: the answer says the field kept something else.
  expect(await act('textbox "Code (letters only)"', 'fill', 'ab12cd')).toMatch(
    /note: the field holds "abcd", not what was filled/,
  );
  expect(await act('combobox "Size"', 'select', 'Large')).toMatch(/combobox "Size" e\d+ focused value="Large"/);
  expect(await act('checkbox "Gift wrap"', 'check')).toMatch(/checkbox "Gift wrap" e\d+ checked/);
  expect(await act('radio "pro"', 'check')).toMatch(/radio "pro" e\d+ checked/);
  await act('textbox "Note"', 'fill', 'ring twice');
  // Keys go to the focused field: a select-all, then typing replaces the text.
  const typed = await env.call('ui_act', { action: 'press', value: 'Control+a' });
  expect(typed.failed, typed.text).toBe(false);
  await env.call('ui_act', { action: 'press', value: 'x' });
  await expect(page.getByTestId('keys')).toHaveText('keys: Control+Control Control+a x');
  await expect(page.getByLabel('Note')).toHaveValue('x');

  const sent = await act('button "Place order"', 'click');
  expect(sent).toMatch(/\+ status "Sent" e\d+/);
  const shown = JSON.parse((await page.getByLabel('Sent').textContent()) ?? '');
  expect(shown).toEqual({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    code: 'abcd',
    size: 'l',
    gift: true,
    plan: 'pro',
    note: 'x',
  });

  // What was done is the app's state: React re-rendered from it, not from the DOM.
  const after = (await env.call('ui_snapshot', { ref: refOf(outline, 'form "Order"') })).text;
  expect(after).toMatch(/textbox "Name" e\d+ required value="Ada Lovelace"/);
  expect(after).toMatch(/checkbox "Gift wrap" e\d+ checked/);
});

test('shadow roots, frames, overlays, dialogs, hidden inputs and key handlers on a plain page', async ({
  page,
  browser,
}) => {
  const other = await (await import('./support/ui-apps.js')).serveUiApps();
  try {
    await env.open(page, 'kitchen', { other: `${other.origin}/frame.html` });
    await page.locator('iframe[title="Same origin frame"]').contentFrame().locator('#framed').waitFor();
    const outline = (await env.call('ui_snapshot')).text;
    // Open shadow roots with their slots, same-origin frames inside, other origins named only.
    expect(outline).toMatch(/heading "Slotted title" e\d+ level=2/);
    expect(outline).toMatch(/button "Shadow button" e\d+/);
    expect(outline).toMatch(/iframe "Same origin frame" e\d+\n {4}button "Button in a frame" e\d+/);
    expect(outline).toMatch(/iframe "Other origin frame" e\d+ cross-origin/);
    expect(outline).toMatch(/link "Docs" e\d+ -> https:\/\/example\.invalid\/docs/);
    expect(outline).toMatch(/textbox "Password" e\d+ value="\(hidden\)"/);
    expect(outline).not.toContain('hunter2');
    expect(outline).not.toContain('Invisible button');
    expect(outline).not.toContain('Aria-hidden button');
    expect(outline).not.toContain('Hidden until opened');
    expect(outline).toMatch(/combobox "Country" e\d+ value="Country 0"/);
    expect(outline).toContain('text "… 15 more options"');

    const act = (ref: string, action: string, extra: Record<string, unknown> = {}) =>
      env.call('ui_act', { ref, action, ...extra });

    expect((await act(refOf(outline, 'button "Shadow button"'), 'click')).text).toContain('~ text "1 clicks"');
    expect((await act(refOf(outline, 'button "Button in a frame"'), 'click')).failed).toBe(false);
    await expect(page.locator('iframe[title="Same origin frame"]').contentFrame().locator('#framed-count')).toHaveText(
      '1',
    );

    // A button under a banner: refused, naming what covers it (with a ref to act on).
    const covered = await act(refOf(outline, 'button "Under the overlay"'), 'click');
    expect(covered.failed).toBe(true);
    expect(covered.text).toMatch(
      /click e\d+ was not done: another element covers it .* In the way: button "Accept cookies" e\d+ \(in dialog "Cookie banner" e\d+\)$/,
    );
    expect(await page.locator('#log').textContent()).toBe('');
    await act(refOf(outline, 'button "Accept cookies"'), 'click');
    await act(refOf(outline, 'button "Under the overlay"'), 'click');
    await expect(page.locator('#log')).toHaveText('pointerdown mousedown focus pointerup mouseup click');

    // confirm() answered as asked, and reported; the page never blocks.
    const dismissed = await act(refOf(outline, 'button "Delete account"'), 'click', { dialog: 'dismiss' });
    expect(dismissed.text).toContain('dialog: confirm "Really delete the account?" → dismissed');
    await expect(page.locator('#deleted')).toBeHidden();
    const accepted = await act(refOf(outline, 'button "Delete account"'), 'click');
    expect(accepted.text).toContain('dialog: confirm "Really delete the account?" → accepted');
    expect(accepted.text).toMatch(/\+ text "Account deleted"|~ .*Account deleted/);
    // The app's own confirm is back once the act is over.
    await expect.poll(() => page.evaluate(() => window.confirm.toString())).toContain('[native code]');

    const summary = await act(refOf(outline, 'button "More options"'), 'click');
    expect(summary.text).toMatch(
      /^click button "More options" e\d+ expanded focused: done\n~ text "Hidden until opened" e\d+$/,
    );
    expect((await env.call('ui_snapshot', { text: 'Hidden until' })).text).toContain('text "Hidden until opened"');

    const edited = await act(refOf(outline, 'textbox "Editor"'), 'fill', { value: 'New text' });
    expect(edited.text).toMatch(/textbox "Editor" e\d+ focused value="New text"/);

    // The checkbox itself is display:none: its label takes the click, as a person's would.
    expect((await act(refOf(outline, 'checkbox "I accept the terms"'), 'check')).failed).toBe(false);
    await expect(page.locator('#terms')).toBeChecked();

    await act(refOf(outline, 'listbox "Keyboard list"'), 'press', { value: 'ArrowDown' });
    // A div with a click handler and no role: its text line has the ref to click.
    await act(refOf(outline, 'text "Clickable div"'), 'click');
    await expect(page.locator('#log')).toContainText('terms:true key:ArrowDown div-clicked');

    const picked = await act(refOf(outline, 'combobox "Country"'), 'select', { value: 'country 30' });
    expect(picked.text).toMatch(/value="Country 30"/);
    const missing = await act(refOf(outline, 'combobox "Country"'), 'select', { value: 'Atlantis' });
    expect(missing.text).toMatch(/no option matches "Atlantis"; the options: "Country 0", "Country 1"/);

    const scrolled = await act(refOf(outline, 'text "Row 0"'), 'scroll', { value: 'down' });
    expect(scrolled.text).toMatch(/scrolled to x=0 y=6\d/);

    const wrong = await act(refOf(outline, 'button "Shadow button"'), 'fill', { value: 'x' });
    expect(wrong.text).toMatch(/was not done: the element is a button "Shadow button", not a text field/);
  } finally {
    await other.close();
    void browser;
  }
});

test('outlines are bounded and scoped: default size, limit with what is left, depth, ref, text', async ({ page }) => {
  await env.open(page, 'big');
  const whole = (await env.call('ui_snapshot')).text;
  expect(Buffer.byteLength(whole)).toBeLessThanOrEqual(12 * 1024);
  expect(whole).toMatch(/… about \d+ more elements not shown: scope with ref or text, or raise limit$/);
  const limited = (await env.call('ui_snapshot', { limit: 5 })).text.split('\n');
  expect(limited).toHaveLength(1 + 5 + 1);
  const shallow = (await env.call('ui_snapshot', { depth: 1 })).text;
  expect(shallow).toMatch(/table e\d+\n {2}row e\d+ \(\+3 inside\)/);
  const found = (await env.call('ui_snapshot', { text: 'Customer 977' })).text;
  expect(found).toMatch(/\ntable e\d+\n {2}row e\d+\n {4}cell "Customer 977" e\d+\n1 match for "Customer 977"$/);
  const row = refOf(found, /^ {2}row/);
  const scoped = (await env.call('ui_snapshot', { ref: row })).text;
  expect(scoped.split('\n').slice(1)).toEqual([
    expect.stringMatching(/^row e\d+$/),
    expect.stringContaining('cell "977"'),
    expect.stringContaining('cell "Customer 977"'),
    expect.stringMatching(/^ {2}cell e\d+$/),
    expect.stringMatching(/^ {4}button "Edit" e\d+$/),
  ]);
  // The same element keeps its ref from snapshot to snapshot.
  expect(refOf((await env.call('ui_snapshot', { text: 'Customer 977' })).text, /^ {2}row/)).toBe(row);
  expect((await env.call('ui_snapshot', { text: 'no such text' })).text).toMatch(
    /nothing on the page matches "no such text"$/,
  );
});
