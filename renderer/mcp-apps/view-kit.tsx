import { type ReactNode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AppLink, applyTheme, type ToolResultParams } from './app-link.js';

/** The tool result the host handed the view, and each one after it. */
export function useToolResult(link: AppLink): ToolResultParams | undefined {
  const [result, setResult] = useState(link.result);
  useEffect(() => {
    link.onResult = setResult;
    setResult(link.result);
    return () => {
      link.onResult = undefined;
    };
  }, [link]);
  return result;
}

/** The session the shown call was made for, to pass on to the tools the view calls back. */
export function sessionOf(link: AppLink): { sessionId?: string } {
  const id = link.input?.sessionId;
  return typeof id === 'string' ? { sessionId: id } : {};
}

/** A result as its text blocks: a failure (isError) says so, as the window's tool runner does. */
export function ResultText({ result }: { result: ToolResultParams }) {
  const text = result.content
    .filter((block) => block.type === 'text')
    .map((block) => (block as { text: string }).text)
    .join('\n');
  return (
    <pre className={result.isError ? 'mcp-app-result mcp-app-error' : 'mcp-app-result'} data-testid="mcp-app-result">
      {result.isError ? `Failed: ${text}` : text}
    </pre>
  );
}

/** The table's height for `rows` rows (a header, 24 px a row), at most 360 px: the host sizes the frame to the page. */
export const tableHeight = (rows: number) => Math.min(26 + rows * 24 + 4, 360);

interface Detail {
  /** The list result the detail was opened from: a new list closes it. */
  of: ToolResultParams;
  /** What is opened, as "message 12": "Reading message 12…", and the section is "Message 12". */
  label: string;
  result?: ToolResultParams;
  error?: string;
}

/** One row opened by calling `tool` back through the host, as the window's panel opens its detail. */
export function useDetail(link: AppLink, tool: string) {
  const [detail, setDetail] = useState<Detail>();
  const open = (of: ToolResultParams, label: string, args: Record<string, unknown>) => {
    setDetail({ of, label });
    link.callTool(tool, { ...args, ...sessionOf(link) }).then(
      (result) => setDetail({ of, label, result }),
      (e: Error) => setDetail({ of, label, error: e.message }),
    );
  };
  return { detail, open };
}

/** The opened row under the list: its answer, the call's failure, or that it is being read. */
export function DetailSection({
  detail,
  shown,
  children,
}: {
  detail: Detail | undefined;
  /** The list result now shown. */
  shown: ToolResultParams;
  children: (result: ToolResultParams) => ReactNode;
}) {
  if (detail?.of !== shown) return null;
  return (
    <section
      className="mcp-app-detail"
      aria-label={detail.label[0]!.toUpperCase() + detail.label.slice(1)}
      data-testid="mcp-app-detail"
    >
      {detail.error ? (
        <p className="mcp-app-error">{detail.error}</p>
      ) : detail.result ? (
        children(detail.result)
      ) : (
        <p className="muted">Reading {detail.label}…</p>
      )}
    </section>
  );
}

/** Until the host hands over the tool's answer. */
export const Waiting = () => <p className="muted mcp-app-waiting">Waiting for the tool's answer…</p>;

/** Renders the view and connects it to the host (theme from the host's context). */
export function mountView(name: string, View: (props: { link: AppLink }) => ReactNode): void {
  const link = new AppLink();
  link.onContext = applyTheme;
  createRoot(document.getElementById('root')!).render(<View link={link} />);
  void link.connect({ name, version: '1' });
}
