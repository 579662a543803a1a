import { useEffect, useState } from 'react';
import type { AppLink, ToolResultParams } from './app-link.js';

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
