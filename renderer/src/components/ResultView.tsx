import { useState } from 'react';
import type { ToolRunResult } from '../../../shared/bridge.js';
import { FailedMark } from './FailedMark.js';
import { ImagePreview } from './ImagePreview.js';
import { JsonTree } from './JsonTree.js';

/** A tool's answer: JSON as a tree, images as images, text as text, failures flagged. */
export function ResultView({ result, durationMs }: { result: ToolRunResult; durationMs?: number }) {
  const [mode, setMode] = useState<'rendered' | 'raw'>('rendered');
  const json = structured(result);
  return (
    <section className={`result${result.isError ? ' failed' : ''}`} aria-label="Result" data-failed={result.isError}>
      <div className="result-head">
        {result.isError ? <FailedMark /> : <span className="status-ok">✓ Succeeded</span>}
        {durationMs !== undefined && <span className="muted small">{formatMs(durationMs)}</span>}
        <span className="spacer" />
        {json !== undefined && (
          <div className="row small">
            <button type="button" className="link" onClick={() => setMode(mode === 'raw' ? 'rendered' : 'raw')}>
              {mode === 'raw' ? 'Show tree' : 'Show raw'}
            </button>
          </div>
        )}
      </div>
      <div className="result-body">
        {json !== undefined &&
          (mode === 'rendered' ? (
            <JsonTree value={json} label="Result JSON" />
          ) : (
            <pre>{JSON.stringify(json, null, 2)}</pre>
          ))}
        {result.content.map((block, i) => {
          if (block.type === 'text' && isMirror(block.text, result)) return null;
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no identity besides their position
          return <Block key={i} block={block} index={i} />;
        })}
        {result.content.length === 0 && json === undefined && <span className="muted">(empty result)</span>}
      </div>
    </section>
  );
}

function Block({ block, index }: { block: ToolRunResult['content'][number]; index: number }) {
  if (block.type === 'image') {
    return (
      <ImagePreview
        src={`data:${block.mimeType};base64,${block.data}`}
        alt={`Result ${index + 1} (${block.mimeType})`}
        mimeType={block.mimeType}
      />
    );
  }
  if (block.type === 'resource_link') {
    return (
      <p className="result-link">
        File:{' '}
        <code>{block.uri.startsWith('file://') ? decodeURIComponent(new URL(block.uri).pathname) : block.uri}</code>
        {block.size !== undefined && <span className="muted"> ({block.size.toLocaleString()} bytes)</span>}
      </p>
    );
  }
  return <TextBlock text={block.text} />;
}

function TextBlock({ text }: { text: string }) {
  const parsed = parseJson(text);
  if (parsed !== undefined && typeof parsed === 'object' && parsed !== null) return <JsonTree value={parsed} />;
  return <pre>{text}</pre>;
}

/** The JSON the result carries: the handler's raw value for the window, else structuredContent. */
function structured(result: ToolRunResult): unknown {
  if (result.raw !== undefined && typeof result.raw === 'object' && result.raw !== null) return result.raw;
  return result.structuredContent;
}

/** A json() result repeats its payload as text for text-only clients; the tree already shows it. */
function isMirror(text: string, result: ToolRunResult): boolean {
  if (result.structuredContent === undefined && result.raw === undefined) return false;
  const parsed = parseJson(text);
  if (parsed === undefined) return false;
  const same = (v: unknown) => v !== undefined && JSON.stringify(parsed) === JSON.stringify(v);
  return same(result.structuredContent) || same(result.raw);
}

function parseJson(text: string): unknown {
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function formatMs(ms: number): string {
  if (ms < 1) return '<1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
