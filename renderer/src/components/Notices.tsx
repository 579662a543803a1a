import { useEffect } from 'react';
import { useSessions } from '../stores/sessions.js';

const VISIBLE_MS = 6000;

/** Connect/disconnect and error notices, bottom right; each goes away after a few seconds. */
export function Notices() {
  const notices = useSessions((s) => s.notices);
  const dismiss = useSessions((s) => s.dismiss);
  useEffect(() => {
    if (notices.length === 0) return;
    const oldest = notices[0]!;
    const timer = setTimeout(() => dismiss(oldest.id), Math.max(0, oldest.at + VISIBLE_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [notices, dismiss]);
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice ${n.kind}`}>
          <span>{n.text}</span>
          <span className="spacer" />
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
