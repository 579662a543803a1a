// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { button, byLabel, click, render, type } from '../test/dom.js';
import { SchemaForm } from './SchemaForm.js';

const schema = z.toJSONSchema(
  z.object({
    sessionId: z.string().min(1).optional().describe('Which app'),
    urlContains: z.string().describe('Part of the URL'),
    limit: z.number().int().min(1).max(100).default(10),
    method: z.enum(['GET', 'POST']).optional(),
    enabled: z.boolean(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  { target: 'draft-7', io: 'input' },
);

describe('SchemaForm', () => {
  const defer = cleanupAfterEach();
  const mount = (props: Partial<Parameters<typeof SchemaForm>[0]> = {}) => {
    const submitted: Record<string, unknown>[] = [];
    const view = render(
      <SchemaForm
        schema={schema}
        onSubmit={(args) => submitted.push(args)}
        sessions={[{ id: 'sess-1', label: 'Shop · Chrome' }]}
        {...props}
      />,
    );
    defer(view.unmount);
    return { ...view, submitted };
  };

  it('renders a field per property with its hint, default and the session suggestions', () => {
    const { container } = mount();
    expect(byLabel(container, 'urlContains')).toBeInstanceOf(HTMLInputElement);
    expect((byLabel(container, 'limit') as HTMLInputElement).value).toBe('10');
    expect(byLabel(container, 'method')?.tagName).toBe('SELECT');
    expect(byLabel(container, 'headers')?.tagName).toBe('TEXTAREA');
    expect(container.textContent).toContain('Part of the URL');
    const datalist = container.querySelector('datalist');
    expect(datalist?.querySelector('option')?.getAttribute('value')).toBe('sess-1');
  });

  it('refuses to run with a missing required field, then runs with typed values converted', () => {
    const { container, submitted } = mount();
    click(button(container, 'Run'));
    expect(submitted).toEqual([]);
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('1 field needs attention');
    expect(container.querySelector('.error')?.textContent).toBe('required');

    type(byLabel(container, 'urlContains'), '/api');
    type(byLabel(container, 'limit'), '25');
    type(byLabel(container, 'method'), '"POST"');
    click(byLabel(container, 'enabled'));
    type(byLabel(container, 'headers'), '{"x-test": "1"}');
    click(button(container, 'Run'));
    expect(submitted).toEqual([
      { urlContains: '/api', limit: 25, method: 'POST', enabled: true, headers: { 'x-test': '1' } },
    ]);
    expect(container.querySelector('[role="alert"]')).toBeNull();
  });

  it('shows a bad number next to its field', () => {
    const { container, submitted } = mount();
    type(byLabel(container, 'urlContains'), '/api');
    type(byLabel(container, 'limit'), '1000');
    click(button(container, 'Run'));
    expect(submitted).toEqual([]);
    expect(container.querySelector('.error')?.textContent).toBe('must be ≤ 100');
    expect(byLabel(container, 'limit')?.getAttribute('aria-invalid')).toBe('true');
  });

  it('switches to raw JSON with the current arguments, and validates what is typed there', () => {
    const { container, submitted } = mount();
    type(byLabel(container, 'urlContains'), '/cart');
    click(button(container, 'Edit as JSON'));
    const raw = byLabel(container, 'Arguments (JSON)') as HTMLTextAreaElement;
    expect(JSON.parse(raw.value)).toEqual({ urlContains: '/cart', limit: 10, enabled: false });

    type(raw, '[1, 2]');
    click(button(container, 'Run'));
    expect(container.querySelector('[role="alert"]')?.textContent).toMatch(/must be a JSON object/);
    type(raw, '{"urlContains": 5}');
    click(button(container, 'Run'));
    // The raw editor sends what was typed; the tool's own validation answers a wrong type.
    expect(submitted).toEqual([{ urlContains: 5 }]);
    click(button(container, 'Back to the form'));
    expect(byLabel(container, 'urlContains')).not.toBeNull();
  });

  it('edits a schema it cannot show as a form in the raw-JSON editor only', () => {
    const { container, submitted } = mount({ schema: { type: 'array' } });
    expect(button(container, 'Edit as JSON')).toBeNull();
    expect(container.textContent).toContain('This schema is edited as JSON.');
    type(byLabel(container, 'Arguments (JSON)'), '{"any": true}');
    click(button(container, 'Run'));
    expect(submitted).toEqual([{ any: true }]);
  });

  it('says when a tool takes no arguments', () => {
    const { container, submitted } = mount({ schema: { type: 'object', properties: {} } });
    expect(container.textContent).toContain('This tool takes no arguments.');
    click(button(container, 'Run'));
    expect(submitted).toEqual([{}]);
  });
});
