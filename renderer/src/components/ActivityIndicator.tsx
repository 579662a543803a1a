import { useEffect, useState } from 'react';
import { indicatorState, useHistory } from '../stores/history.js';
import { useMcp } from '../stores/mcp.js';
import { useNav } from '../stores/nav.js';
import { usePermissions } from '../stores/permissions.js';

/** Shows whether an AI agent is connected over MCP and names the tool it is running right now. */
export function ActivityIndicator() {
  const activity = useHistory((s) => s.activity);
  const clients = useMcp((s) => s.status?.clients) ?? [];
  const follow = useNav((s) => s.follow);
  const setFollow = useNav((s) => s.setFollow);
  const selectCall = useNav((s) => s.selectCall);
  const [now, setNow] = useState(() => Date.now());
  const names = [...new Set(clients.map((c) => c.name))];
  const state = indicatorState(activity, names, now);
  const waiting = usePermissions((s) => state.kind === 'running' && s.asks.some((a) => a.callId === state.call.id));

  // Re-render when a finished call's flash ends.
  const until = activity.last?.visibleUntil ?? 0;
  useEffect(() => {
    const wait = until - Date.now();
    setNow(Date.now());
    if (wait <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), wait + 20);
    return () => clearTimeout(timer);
  }, [until]);

  let label: string;
  let title: string;
  switch (state.kind) {
    case 'none':
      label = 'No AI agent connected';
      title = 'Connect an MCP client (see MCP server) to let an agent use the inspector';
      break;
    case 'idle':
      label = `AI agent connected · ${state.clients.join(', ')}`;
      title = 'Idle: no tool call is running';
      break;
    case 'running':
      label = `${waiting ? 'Waiting for you:' : 'Running'} ${state.tool}${state.more > 0 ? ` (+${state.more})` : ''}`;
      title = waiting
        ? `${state.call.client?.name ?? 'An agent'} asks to run ${state.tool}; answer in the prompt`
        : `${state.call.client?.name ?? 'An agent'} is running ${state.tool}`;
      break;
    case 'flash':
      label = `${state.status === 'failed' ? 'Failed' : state.status === 'refused' ? 'Refused' : 'Ran'} ${state.tool}`;
      title = `${state.call.client?.name ?? 'An agent'} just ran ${state.tool}`;
      break;
  }
  const failed = state.kind === 'flash' && state.status === 'failed';
  const call = state.kind === 'running' || state.kind === 'flash' ? state.call : undefined;

  return (
    <div className="row">
      <button
        type="button"
        className={`activity ${state.kind}${failed ? ' failed' : ''}`}
        data-testid="ai-activity"
        data-state={state.kind}
        title={title}
        aria-live="polite"
        onClick={() => (call ? selectCall(call.id) : useNav.getState().show('mcp'))}
      >
        {state.kind !== 'none' && <span className="pulse" aria-hidden="true" />}
        <span className="label">{label}</span>
      </button>
      {follow ? (
        <button type="button" onClick={() => setFollow(false)} title="Stop switching to what the agent operates on">
          Following agent · Stop
        </button>
      ) : (
        <button
          type="button"
          onClick={() => setFollow(true)}
          title="Switch to the session and plugin the agent operates on, call by call"
        >
          Follow agent
        </button>
      )}
    </div>
  );
}
