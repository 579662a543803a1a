import { useState } from 'react';
import type { AppLink, ToolResultParams } from '../../../../renderer/mcp-apps/app-link.js';
import {
  DetailSection,
  mountView,
  ResultText,
  tableHeight,
  useDetail,
  useToolResult,
  Waiting,
} from '../../../../renderer/mcp-apps/view-kit.js';
import { type GridColumn, VirtualGrid } from '../../../../renderer/src/components/VirtualGrid.js';
import type { ErrorGroup } from '../../protocol.js';
import { shortSite, timeWithMs } from '../MessageRow.js';
import '../../../../renderer/src/styles.css';
import '../console.css';
import '../../../../renderer/mcp-apps/mcp-app.css';

/** What console_list_errors answers in structuredContent (the fields the view reads). */
interface Groups {
  summary?: string;
  groups?: ErrorGroup[];
  next?: string;
}

const key = (g: ErrorGroup) => String(g.lastSeq);

const COLUMNS: GridColumn<ErrorGroup>[] = [
  { id: 'count', title: 'Count', width: 60, minWidth: 48, align: 'right', cell: (g) => `×${g.count}` },
  {
    id: 'text',
    title: 'Error',
    width: 320,
    minWidth: 160,
    cell: (g) => (
      <span className="con-text">
        {g.kind === 'error' ? '' : <span className="muted">{g.kind} </span>}
        {g.text}
        {g.textTruncated ? '…' : ''}
      </span>
    ),
    tooltip: (g) => g.text,
  },
  {
    id: 'site',
    title: 'Where',
    width: 160,
    minWidth: 80,
    cell: (g) => (g.site ? shortSite(g.site) : ''),
    tooltip: (g) => g.site,
  },
  { id: 'last', title: 'Last', width: 100, minWidth: 90, cell: (g) => timeWithMs(g.lastSeen) },
];
/** The last occurrence as console_get_message answers it: when, its text and its (source-mapped) stack. */
function MessageView({ result }: { result: ToolResultParams }) {
  const message = result.structuredContent as { time?: number; text?: string; stackText?: string } | undefined;
  if (result.isError || message?.text === undefined) return <ResultText result={result} />;
  return (
    <pre className="mcp-app-result mcp-app-error" data-testid="mcp-app-message">
      {message.time !== undefined && <span className="muted">{timeWithMs(message.time)} </span>}
      {message.text}
      {message.stackText ? `\n${message.stackText.replace(/^.*\n/, '')}` : ''}
    </pre>
  );
}

const TEMPLATE = '60px minmax(160px, 1fr) 160px 100px';

/**
 * console_list_errors as an MCP App: the error groups in the console panel's look; selecting a
 * group (a click, the arrow keys) reads its last occurrence (with its stack) with console_get_message through the host.
 */
function ConsoleErrors({ link }: { link: AppLink }) {
  const result = useToolResult(link);
  const answer = result?.structuredContent as Groups | undefined;
  const groups = answer?.groups;
  const [selected, setSelected] = useState<string>();
  const { detail, open } = useDetail(link, 'console_get_message');

  if (!result) return <Waiting />;
  if (result.isError || !groups) return <ResultText result={result} />;
  return (
    <main className="mcp-app" aria-label="Errors, grouped">
      <p className="mcp-app-summary" data-testid="mcp-app-summary">
        {answer.summary}
      </p>
      {groups.length > 0 && (
        <div className="mcp-app-table" style={{ height: tableHeight(groups.length) }}>
          <VirtualGrid
            label="Error groups"
            testId="console-error-groups"
            rowTestId={() => 'console-error-group'}
            rows={groups}
            rowKey={key}
            rowClassName={() => 'con-row level-error'}
            columns={COLUMNS}
            template={TEMPLATE}
            selectedKey={selected}
            onSelect={(id) => {
              setSelected(id);
              if (id) open(result, `message ${id}`, { seq: Number(id) });
            }}
          />
        </div>
      )}
      {answer.next && <p className="muted">{answer.next}</p>}
      <DetailSection detail={detail} shown={result}>
        {(message) => <MessageView result={message} />}
      </DetailSection>
    </main>
  );
}

mountView('porthole-console-errors', ConsoleErrors);
