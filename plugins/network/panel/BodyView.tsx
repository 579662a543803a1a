import { useState } from 'react';
import { ImagePreview } from '../../../renderer/src/components/ImagePreview.js';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import type { SafeRegex } from '../../../shared/safe-regex.js';
import type { Body } from '../protocol.js';
import { hexDump, viewOf } from './body.js';
import { formatBytes } from './format.js';
import { countMatches, Marked } from './Marked.js';

/** A captured body: JSON as a tree, images as images, binary as hex; truncation always said. */
export function BodyView({
  body,
  contentType,
  label,
  pattern,
}: {
  body?: Body;
  contentType?: string;
  label: string;
  /** A search in force: its hits are marked (a JSON body opens as text to show them). */
  pattern?: SafeRegex;
}) {
  const view = viewOf(body, contentType);
  const hits = view.kind === 'json' || view.kind === 'text' ? countMatches(view.text, pattern) : 0;
  const [raw, setRaw] = useState(hits > 0);
  if (!body || view.kind === 'empty') return <p className="muted">No {label.toLowerCase()}.</p>;
  const total = body.totalSize ?? body.size;
  const marked = hits > 0 ? pattern : undefined;
  return (
    <section className="stack" aria-label={label} style={{ gap: 8 }}>
      <div className="row small muted">
        <span>{formatBytes(total)}</span>
        {body.contentType && <span>· {body.contentType}</span>}
        {body.encoding === 'base64' && <span>· binary</span>}
        {hits > 0 && (
          <span className="badge accent" data-testid="search-hits">
            {hits} {hits === 1 ? 'match' : 'matches'}
          </span>
        )}
        <span className="spacer" />
        {view.kind === 'json' && (
          <button type="button" className="link" onClick={() => setRaw(!raw)}>
            {raw ? 'Show tree' : 'Show raw'}
          </button>
        )}
      </div>
      {body.truncated && (
        <div className="banner warn" data-testid="truncated">
          Truncated: showing the first {formatBytes(body.size)}
          {body.totalSize !== undefined ? ` of ${formatBytes(body.totalSize)}` : ''} (the capture stops at the app's
          maxBodyBytes).
        </div>
      )}
      {view.kind === 'json' &&
        (raw ? (
          <pre className="code-block">
            <Marked text={view.text} pattern={marked} />
          </pre>
        ) : (
          <JsonTree value={view.value} expandDepth={3} label={`${label} JSON`} />
        ))}
      {view.kind === 'text' && (
        <pre className="code-block">
          <Marked text={view.text} pattern={marked} />
        </pre>
      )}
      {view.kind === 'image' && <ImagePreview src={view.src} alt={`${label} image`} mimeType={view.mime} />}
      {view.kind === 'binary' && (
        <>
          <section aria-label={`${label} hex`}>
            <pre className="code-block hex">{hexDump(view.bytes)}</pre>
          </section>
          {total > view.bytes.length && (
            <span className="muted small">
              First {formatBytes(view.bytes.length)} of {formatBytes(total)} shown.
            </span>
          )}
        </>
      )}
    </section>
  );
}
