import { useEffect, useState } from 'react';
import { CopyButton } from '../../../renderer/src/components/CopyButton.js';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { toDisplay } from '../../../renderer/src/components/serialized-value.js';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import type { ConsoleProtocol, Frame, Message, StackFrame } from '../protocol.js';

const place = (f: Frame) => `${f.file}:${f.line}:${f.column}`;

const ORIGIN: Partial<Record<Message['kind'], string>> = {
  exception: 'uncaught exception',
  rejection: 'unhandled rejection',
  connected: 'the inspector',
};

function headline(m: Message): string {
  const origin = ORIGIN[m.kind] ?? `console.${m.kind}`;
  return `${m.level} · ${origin}${m.fatal ? ' · ended the app' : ''}${m.count > 1 ? ` · ×${m.count}` : ''}`;
}

/** One message in full: its text, every argument as an expandable tree, its stack with mapped frames. */
export function MessageDetail({
  api,
  seq,
  version,
  onClose,
}: {
  api: PanelClient<ConsoleProtocol>;
  seq: number;
  /** The list's version: a repeat or a newly mapped stack reloads the detail. */
  version: number;
  onClose(): void;
}) {
  const [message, setMessage] = useState<Message | null>();
  const [error, setError] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: version asks again when the message changed
  useEffect(() => {
    let live = true;
    api.call('get', { seq }).then(
      (m) => live && setMessage(m),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api, seq, version]);

  return (
    <section className="con-detail" aria-label="Message detail" data-testid="console-detail">
      <div className="row con-detail-bar">
        <strong>{message ? headline(message) : '…'}</strong>
        <span className="grow" />
        {message && <CopyButton text={message.text} label="Copy text" />}
        <button type="button" onClick={onClose} aria-label="Close the detail">
          ✕
        </button>
      </div>
      {error && <div className="banner error">{error}</div>}
      {message === null && <div className="banner warn">This message is no longer stored (cleared or dropped).</div>}
      {message && (
        <div className="con-detail-body">
          <pre className={`con-full level-${message.level}`}>{message.text}</pre>
          {message.args.length > 0 && (
            <div className="con-args" data-testid="console-args">
              {message.args.map((arg, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: arguments have no identity but their place
                <JsonTree key={i} value={toDisplay(arg)} expandDepth={1} label={`Argument ${i + 1}`} />
              ))}
            </div>
          )}
          {message.stack && message.stack.length > 0 ? (
            <Stack frames={message.stack} />
          ) : (
            message.callSite && <Stack frames={[message.callSite]} title="Logged at" />
          )}
        </div>
      )}
    </section>
  );
}

function Stack({ frames, title = 'Stack' }: { frames: StackFrame[]; title?: string }) {
  return (
    <section className="con-stack" aria-label={title} data-testid="console-stack">
      <h4>{title}</h4>
      <ol>
        {frames.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a stack may repeat a frame
          <li key={i} data-testid="console-frame">
            <span className="con-fn">{(f.mapped?.fn ?? f.fn) || '(anonymous)'}</span>{' '}
            {f.mapped ? (
              <>
                <code className="con-mapped" title="In the original source (source-mapped)">
                  {place(f.mapped)}
                </code>{' '}
                <code className="muted con-raw" title="As the app ran it">
                  {place(f)}
                </code>
              </>
            ) : (
              <code>{place(f)}</code>
            )}{' '}
            <CopyButton text={place(f.mapped ?? f)} label="Copy" className="link" />
          </li>
        ))}
      </ol>
    </section>
  );
}
